/**
 * A value read from somewhere slow (an object store), kept and served as
 * it is until it is older than its age, then read again: behind the
 * readers' backs (they keep getting the value they had until the new one
 * is in) when one is kept, or while they wait when there is none yet. A
 * read again that fails keeps the old value: an object store that is away
 * for a moment leaves readers serving what they knew.
 *
 * @module
 */

/** A kept value and its reading. */
export interface Kept<T> {
  /** The value now: read once when there is none yet, read again behind the caller's back once stale. */
  get(): Promise<T>;
  /** Reads it again now and waits for the new value. */
  refresh(): Promise<T>;
  /** Says the value is stale: the next `get` reads it again behind the caller's back. */
  stale(): void;
  /** Whether the value is older than its age (or there is none). */
  old(): boolean;
}

/**
 * A {@linkcode Kept} value read by `read`, trusted for `ageMs` after it was
 * read; `failed` is told of reads again that failed (the old value stays).
 *
 * @example
 * ```ts
 * import { kept } from "./_kept.ts";
 * let reads = 0;
 * const value = kept(async () => ++reads, 60_000, () => {});
 * await value.get();
 * await value.get(); // 1: kept
 * ```
 */
export function kept<T>(
  read: () => Promise<T>,
  ageMs: number,
  failed: (e: unknown) => void,
  now: () => number = Date.now,
): Kept<T> {
  let value: { v: T } | null = null;
  let at = 0;
  let running: Promise<T> | null = null;
  const again = (): Promise<T> => {
    if (running) return running;
    const started = now();
    const reading = read().then((v) => {
      value = { v };
      at = started;
      return v;
    }).finally(() => {
      if (running === reading) running = null;
    });
    running = reading;
    return reading;
  };
  return {
    async get() {
      if (value === null) return await again();
      if (now() - at >= ageMs) again().catch(failed);
      return value.v;
    },
    refresh: again,
    stale() {
      at = -Infinity;
    },
    old: () => value === null || now() - at >= ageMs,
  };
}
