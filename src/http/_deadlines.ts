/**
 * Deadlines of many connections checked by one timer: arming and disarming
 * a deadline is a field write, where a timer per exchange costs a timer
 * created and cleared (three per request). A deadline fires at most one tick
 * late, and on the monotonic clock: a wall clock set back or forward moves
 * none.
 *
 * @module
 */

/** One connection's deadline. */
export interface Deadline {
  /**
   * Fires `then` once `ms` from now (`now`, when the caller has just read the
   * clock) unless disarmed or armed again first.
   */
  arm(ms: number, then: () => void, now?: number): void;
  /** Cancels the pending deadline. */
  disarm(): void;
  /** Stops watching this deadline for good. */
  drop(): void;
}

/** The deadlines of one server. */
export interface Deadlines {
  /** A new deadline, disarmed. */
  create(): Deadline;
}

interface Entry {
  at: number;
  then: (() => void) | null;
}

/**
 * Deadlines checked every `tickMs` while any is armed or watched.
 */
export function createDeadlines(tickMs: number): Deadlines {
  const watched = new Set<Entry>();
  let interval: ReturnType<typeof setInterval> | undefined;
  const tick = () => {
    const now = performance.now();
    for (const entry of watched) {
      if (entry.then === null || entry.at > now) continue;
      const then = entry.then;
      entry.then = null;
      then();
    }
  };
  return {
    create() {
      const entry: Entry = { at: 0, then: null };
      watched.add(entry);
      interval ??= setInterval(tick, tickMs);
      return {
        arm(ms, then, now = performance.now()) {
          entry.at = now + ms;
          entry.then = then;
        },
        disarm() {
          entry.then = null;
        },
        drop() {
          entry.then = null;
          watched.delete(entry);
          if (watched.size === 0 && interval !== undefined) {
            clearInterval(interval);
            interval = undefined;
          }
        },
      };
    },
  };
}

/**
 * The tick of a server's deadlines: a tenth of its shortest timeout, within
 * 5-250 ms.
 *
 * @example
 * ```ts
 * import { deadlineTick } from "./_deadlines.ts";
 * deadlineTick([10_000, 5_000, 60_000]); // 250
 * ```
 */
export function deadlineTick(timeoutsMs: number[]): number {
  return Math.min(250, Math.max(5, Math.floor(Math.min(...timeoutsMs) / 10)));
}
