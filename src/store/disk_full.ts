/**
 * Telling a full disk (or an exhausted quota) from other write failures,
 * whichever layer raised it: Node's `ENOSPC`/`EDQUOT` codes, Deno's
 * `os error 28`/`122`, DuckDB's "No space left on device".
 *
 * @module
 */

const FULL = /\b(ENOSPC|EDQUOT)\b|No space left on device|Disk quota exceeded|os error (28|122)\b/i;

/**
 * Whether `error` says the disk (or the quota) is full.
 *
 * @example
 * ```ts
 * import { isDiskFull } from "./disk_full.ts";
 * isDiskFull(Object.assign(new Error("write failed"), { code: "ENOSPC" })); // true
 * isDiskFull(new Error("IO Error: No space left on device")); // true
 * ```
 */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  return FULL.test(String((error as Error)?.message ?? error));
}

/** The message a write refused for want of space answers with (HTTP 507). */
export const DISK_FULL_MESSAGE =
  "the node's disk is full: nothing was written; free space on the node (or lower --keep-versions) and try again";
