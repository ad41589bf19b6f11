/**
 * Whether followed and pulled versions must be signed.
 *
 * @module
 */

/**
 * Whether signatures are required: `--verify`, else `SVC_VERIFY` (`1`,
 * `true` or `yes`).
 *
 * @example
 * ```ts
 * import { verifyRequired } from "./verify.ts";
 * verifyRequired(undefined, { SVC_VERIFY: "1" }); // true
 * ```
 */
export function verifyRequired(flag: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return flag ?? /^(1|true|yes)$/i.test(env.SVC_VERIFY ?? "");
}
