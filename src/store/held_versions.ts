/**
 * The versions a project holds, as runs of consecutive numbers: a local
 * project of a hundred thousand versions is one run, held in a few bytes,
 * not an array of every number.
 *
 * @module
 */

/** A project's whole versions. */
export interface HeldVersions {
  /** How many. */
  readonly count: number;
  /** The newest, or null when none. */
  readonly newest: number | null;
  /** The oldest, or null when none. */
  readonly oldest: number | null;
  /** Whether version `n` is held. */
  has(n: number): boolean;
  /** The `i`-th oldest version (from 0), or null past the end. */
  at(i: number): number | null;
  /** The newest `limit` versions (all when absent), newest first. */
  newestFirst(limit?: number): number[];
  /** Every version, oldest first. */
  all(): Generator<number>;
  /** The runs `[first, last]`, oldest first. */
  readonly runs: readonly (readonly [number, number])[];
}

function over(runs: readonly (readonly [number, number])[]): HeldVersions {
  const count = runs.reduce((n, [a, b]) => n + b - a + 1, 0);
  return {
    runs,
    count,
    newest: runs.length ? runs[runs.length - 1][1] : null,
    oldest: runs.length ? runs[0][0] : null,
    has(n) {
      let lo = 0;
      let hi = runs.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const [a, b] = runs[mid];
        if (n < a) hi = mid - 1;
        else if (n > b) lo = mid + 1;
        else return true;
      }
      return false;
    },
    at(i) {
      for (const [a, b] of runs) {
        if (i <= b - a) return i >= 0 ? a + i : null;
        i -= b - a + 1;
      }
      return null;
    },
    newestFirst(limit = Infinity) {
      const out: number[] = [];
      for (let r = runs.length - 1; r >= 0 && out.length < limit; r--) {
        for (let n = runs[r][1]; n >= runs[r][0] && out.length < limit; n--) out.push(n);
      }
      return out;
    },
    *all() {
      for (const [a, b] of runs) for (let n = a; n <= b; n++) yield n;
    },
  };
}

/**
 * The held versions of `numbers` (any order, duplicates ignored).
 *
 * @example
 * ```ts
 * import { heldVersionsOf } from "./held_versions.ts";
 * const held = heldVersionsOf([3, 1, 2, 7]);
 * console.log(held.count, held.newest, held.runs); // 4 7 [[1, 3], [7, 7]]
 * ```
 */
export function heldVersionsOf(numbers: Iterable<number>): HeldVersions {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const n of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[1] === n - 1) last[1] = n;
    else runs.push([n, n]);
  }
  return over(runs);
}

/**
 * `held` with `add` versions added and `remove` versions taken away,
 * without listing every version (runs are split and joined as needed).
 *
 * @example
 * ```ts
 * import { heldVersionsOf, withChanges } from "./held_versions.ts";
 * withChanges(heldVersionsOf([1, 2, 3]), [4], [1]).runs; // [[2, 4]]
 * ```
 */
export function withChanges(held: HeldVersions, add: readonly number[], remove: readonly number[]): HeldVersions {
  if (add.length === 0 && remove.length === 0) return held;
  let runs = held.runs.map(([a, b]) => [a, b] as [number, number]);
  for (const n of add) {
    if (over(runs).has(n)) continue;
    runs.push([n, n]);
    runs.sort((x, y) => x[0] - y[0]);
    const joined: [number, number][] = [];
    for (const run of runs) {
      const last = joined[joined.length - 1];
      if (last && last[1] >= run[0] - 1) last[1] = Math.max(last[1], run[1]);
      else joined.push(run);
    }
    runs = joined;
  }
  for (const n of remove) {
    const i = runs.findIndex(([a, b]) => a <= n && n <= b);
    if (i < 0) continue;
    const [a, b] = runs[i];
    const parts: [number, number][] = [];
    if (a <= n - 1) parts.push([a, n - 1]);
    if (n + 1 <= b) parts.push([n + 1, b]);
    runs.splice(i, 1, ...parts);
  }
  return over(runs);
}
