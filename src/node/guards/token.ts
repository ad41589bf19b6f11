/**
 * The node token: `Authorization: Bearer <token>`, compared in constant time.
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether `given` equals `token`, in time that does not depend on where they
 * differ (both are hashed first so lengths do not leak either).
 *
 * @example
 * ```ts
 * import { sameSecret } from "./token.ts";
 * sameSecret("s3cret", "s3cret"); // true
 * ```
 */
export function sameSecret(given: string, token: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether `req` carries `Authorization: Bearer <token>`.
 *
 * @example
 * ```ts
 * import { hasToken } from "./token.ts";
 * hasToken(new Request("http://x/", { headers: { authorization: "Bearer t" } }), "t"); // true
 * ```
 */
export function hasToken(req: Request, token: string): boolean {
  const header = req.headers.get("authorization");
  if (header === null) return false;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m !== null && sameSecret(m[1], token);
}
