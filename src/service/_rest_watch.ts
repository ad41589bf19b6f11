/**
 * What the memory gate knows of the node at rest: what it held the latest
 * time no request was at work (its baseline), and whether that is over the
 * point where requests wait. Waiting cannot give that memory back, so a node
 * found over at rest sheds what it can, says so, and is measured against its
 * baseline instead of its budget until it is back under.
 *
 * @module
 */

/** Past its baseline at rest, a node over its budget then admits requests up to this share of the budget more. */
const HEADROOM_OVER_REST = 0.05;

/** How the watch learns and tells. */
export interface RestWatchOptions {
  /** The budget, in bytes. */
  budget: number;
  /** Where requests start to wait, in bytes. */
  waitAt: number;
  /** What the node holds now. */
  measure(): number;
  /** Gives back what the node can (caches, garbage). */
  shed?: () => void;
  /** Told, once each way, when the node is found over its budget at rest and when it is back under. */
  warn?: (message: string) => void;
}

/** The node at rest, as the gate sees it. */
export interface RestWatch {
  /** Notes that the node, holding `held` bytes, is at rest now; answers what it holds after any shedding. */
  note(held: number): number;
  /** What it held the latest time it was at rest (0 before). */
  baseline(): number;
  /** Whether that baseline is over the point where requests wait. */
  over(): boolean;
  /** What requests may bring the node to before they wait. */
  limit(): number;
}

const mib = (n: number) => Math.round(n / (1024 * 1024));

/**
 * A watch of the node at rest.
 *
 * @example
 * ```ts
 * import { restWatch } from "./_rest_watch.ts";
 * const watch = restWatch({ budget: 512, waitAt: 486, measure: () => 500 });
 * watch.note(500);
 * console.log(watch.over(), watch.limit()); // true 525.6
 * ```
 */
export function restWatch(options: RestWatchOptions): RestWatch {
  let baseline = 0;
  let over = false;
  return {
    note(held) {
      if (held > options.waitAt && !over) {
        options.shed?.();
        held = options.measure();
      }
      baseline = held;
      const now = held > options.waitAt;
      if (now !== over) {
        const budget = mib(options.budget);
        options.warn?.(
          now
            ? `the node holds ${mib(held)} MiB at rest, over its budget of ${budget} MiB: it serves on, measuring ` +
              "requests against what it holds at rest (see /healthz memory.held for what holds it)"
            : `the node is back under its memory budget at rest (${mib(held)} of ${budget} MiB)`,
        );
      }
      over = now;
      return held;
    },
    baseline: () => baseline,
    over: () => over,
    limit: () => Math.max(options.waitAt, over ? baseline + options.budget * HEADROOM_OVER_REST : 0),
  };
}
