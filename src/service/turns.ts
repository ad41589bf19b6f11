/**
 * Turns at something costly in memory: at most `atOnce` hold one, the next
 * wait in order, and one that waits past its limit is refused as busy (429),
 * so that a burst queues instead of growing the node past its budget.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";

/** Turns at one costly kind of work. */
export interface Turns {
  /** How many may hold a turn at once. */
  readonly atOnce: number;
  /** Waits for a turn; resolves with the function that hands it on (call it once, when the work is done). */
  take(): Promise<() => void>;
}

/**
 * Turns of which `atOnce` may be held; a wait past `waitMs` rejects with a
 * `busy` {@linkcode NodeError} saying `what` (and `Retry-After: retryAfter`
 * when given, in seconds). With `waitMs` null a turn is waited for as long as
 * it takes.
 *
 * @example
 * ```ts
 * import { turns } from "./turns.ts";
 * const exports = turns(1, 30_000, "exports being made");
 * const done = await exports.take();
 * try {
 *   // ... the costly work
 * } finally {
 *   done();
 * }
 * ```
 */
export function turns(atOnce: number, waitMs: number | null, what: string, retryAfter?: number): Turns {
  let held = 0;
  const waiting: (() => void)[] = [];
  const handOn = () => {
    let handed = false;
    return () => {
      if (handed) return;
      handed = true;
      const next = waiting.shift();
      if (next) next();
      else held--;
    };
  };
  return {
    atOnce,
    take() {
      if (held < atOnce) {
        held++;
        return Promise.resolve(handOn());
      }
      return new Promise((resolve, reject) => {
        const go = () => {
          clearTimeout(timer);
          resolve(handOn());
        };
        const timer = waitMs === null ? undefined : setTimeout(() => {
          waiting.splice(waiting.indexOf(go), 1);
          const headers = retryAfter === undefined ? undefined : { "retry-after": String(retryAfter) };
          reject(new NodeError("busy", `too many ${what} at once (${atOnce}); try again shortly`, headers));
        }, waitMs);
        waiting.push(go);
      });
    },
  };
}
