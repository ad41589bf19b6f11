/**
 * The default size of the node's cache of decoded data pages.
 *
 * @module
 */
import { totalmem } from "node:os";

/**
 * The default size: a sixteenth of the machine's memory, within 64 MiB and
 * 256 MiB (a million records of about 90 characters of JSON fit in 110 MiB).
 *
 * @example
 * ```ts
 * import { defaultPageCacheBytes } from "./page_cache.ts";
 * defaultPageCacheBytes(24 * 1024 ** 3); // 268435456
 * ```
 */
export function defaultPageCacheBytes(memory: number = totalmem()): number {
  return Math.min(256 * 1024 ** 2, Math.max(64 * 1024 ** 2, Math.floor(memory / 16)));
}
