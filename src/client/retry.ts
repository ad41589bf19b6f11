/**
 * When a client call is tried again (spec section 8): up to 2 retries by
 * default, on a network error, a timeout, 429, 502, 503 or 504 (part
 * transfers also 500), waiting 0.3 s doubling, or what `Retry-After` says; a
 * `Retry-After` over 30 seconds fails at once. Only calls that are safe to
 * repeat are retried: reads, remote queries, contributions with an
 * Idempotency-Key, payment-service reads and presigned part transfers.
 *
 * @module
 */

/** Retries when a call names none. */
export const DEFAULT_RETRIES = 2;
/** The first wait; each later one doubles. */
export const FIRST_WAIT_MS = 300;
/** A `Retry-After` beyond this fails at once. */
export const MAX_RETRY_AFTER_S = 30;

/**
 * Whether an answer with `status` is worth another try.
 *
 * @example
 * ```ts
 * import { retryableStatus } from "./retry.ts";
 * retryableStatus(503, false); // true
 * retryableStatus(500, false); // false
 * retryableStatus(500, true); // true (a part transfer)
 * ```
 */
export function retryableStatus(status: number, partTransfer: boolean): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504 || (partTransfer && status === 500);
}

/**
 * Milliseconds a `Retry-After` header asks to wait (seconds or an HTTP
 * date), or null when absent or unreadable.
 *
 * @example
 * ```ts
 * import { retryAfterMs } from "./retry.ts";
 * retryAfterMs("2", 0); // 2000
 * retryAfterMs(new Date(5000).toUTCString(), 1000); // 4000
 * ```
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === "") return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * How long to wait before retry number `attempt` (0 for the first retry).
 *
 * @example
 * ```ts
 * import { backoffMs } from "./retry.ts";
 * [backoffMs(0, null), backoffMs(1, null), backoffMs(0, 1500)]; // [300, 600, 1500]
 * ```
 */
export function backoffMs(attempt: number, retryAfter: number | null): number {
  return retryAfter ?? FIRST_WAIT_MS * 2 ** attempt;
}
