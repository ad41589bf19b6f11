/**
 * The parts of a push on their way to the object store: one part PUT to its
 * presigned URL by the bare client (no key, no user agent, no content type;
 * redirects followed), retried as spec 8 says for part transfers, and a
 * small pool that runs a few parts at a time.
 *
 * @module
 */
import { errorForStatus, SvcError } from "@svc/cli/client";
import type { Endpoint } from "@svc/cli/client";
import { backoffMs, DEFAULT_RETRIES, MAX_RETRY_AFTER_S, retryableStatus, retryAfterMs } from "@svc/cli/client";

/** A part attempt may take this long per byte (50 kB/s) when that is longer than the endpoint's timeout. */
const PART_MS_PER_BYTE = 1 / 50;
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * PUTs one part to its presigned URL: no key, no user agent, no content
 * type; redirects followed; retried on a network error, a timeout, 429,
 * 500, 502, 503 and 504 (`Retry-After` obeyed; over 30 s fails at once).
 * Resolves with the ETag, quotes removed.
 */
export async function putPart(
  endpoint: Endpoint,
  url: string,
  bytes: Uint8Array<ArrayBuffer>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const retries = endpoint.retries ?? DEFAULT_RETRIES;
  const sleep = endpoint.sleep ?? sleepFor;
  const timeoutMs = Math.max(endpoint.timeoutMs ?? 60_000, Math.ceil(bytes.byteLength * PART_MS_PER_BYTE));
  const host = new URL(url).host;
  for (let tried = 0;; tried++) {
    const abort = new AbortController();
    // Stopped before this attempt (while the part was read, or during a wait): its listener would never hear it.
    signal?.throwIfAborted();
    const stop = () => abort.abort(signal!.reason);
    signal?.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(() => abort.abort(new DOMException("timed out", "TimeoutError")), timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: "PUT", body: bytes, redirect: "follow", signal: abort.signal });
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (tried < retries) {
        await sleep(backoffMs(tried, null));
        continue;
      }
      const timeout = (e as Error)?.name === "TimeoutError";
      const why = timeout
        ? `${host} did not answer within ${timeoutMs / 1000} s`
        : `${host} cannot be reached (${(e as Error).message})`;
      throw new SvcError(`part upload failed: ${why}`, 0, timeout ? "timeout" : "network", null);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
    if (tried < retries && retryableStatus(res.status, true)) {
      const asked = retryAfterMs(res.headers.get("retry-after"), Date.now());
      if (asked === null || asked <= MAX_RETRY_AFTER_S * 1000) {
        await sleep(backoffMs(tried, asked));
        continue;
      }
    }
    if (res.status >= 400) {
      throw errorForStatus(res.status, `part upload failed: HTTP ${res.status}`, { error: text.slice(0, 500) });
    }
    const etag = res.headers.get("etag");
    if (!etag) throw new SvcError(`part upload failed: the object store returned no ETag`, res.status, "no_etag", null);
    return etag.replace(/^"|"$/g, "");
  }
}

/**
 * Runs `fn` over `items`, `workers` at a time; the first failure (or
 * `signal`) stops new ones, lets running ones end, and is thrown.
 *
 * @example
 * ```ts
 * import { eachPart } from "./_upload_parts.ts";
 * const done: number[] = [];
 * await eachPart([1, 2, 3], 2, undefined, async (n) => void done.push(n));
 * done.length; // 3
 * ```
 */
export async function eachPart(
  items: number[],
  workers: number,
  signal: AbortSignal | undefined,
  fn: (n: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      if (signal?.aborted) {
        [failed, failure] = [true, signal.reason];
        return;
      }
      const n = items[next++];
      try {
        await fn(n);
      } catch (e) {
        if (!failed) [failed, failure] = [true, e];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, items.length) }, worker));
  if (failed) throw failure;
}
