/**
 * "Did you mean" for a command, option or action that does not exist: the
 * one known name closest to what was typed, when one is close enough to be
 * a slip of the fingers (a letter missing, added, changed or two swapped),
 * or the only name that starts with it.
 *
 * @module
 */

/** The optimal string alignment distance between `a` and `b`: edits of one letter, and swaps of two adjacent. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The name of `known` that `typed` most likely meant, or null: the closest
 * within one edit per three letters (at least one), ties going to the
 * first; else the one name `typed` begins (at two letters or more).
 *
 * @example
 * ```ts
 * import { closestName } from "./did_you_mean.ts";
 * closestName("serv", ["serve", "share", "query"]); // "serve"
 * closestName("qeury", ["serve", "share", "query"]); // "query"
 * closestName("xyz", ["serve", "share", "query"]); // null
 * ```
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const name of known) {
    const d = distance(word, name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  if (best !== null) return best;
  const starting = word.length >= 2 ? known.filter((name) => name.toLowerCase().startsWith(word)) : [];
  return starting.length === 1 ? starting[0] : null;
}

/**
 * `": did you mean NAME?"` for {@linkcode closestName}'s answer written as
 * `spell` writes it, or `""` when nothing is close: what follows the words
 * naming what was not found.
 *
 * @example
 * ```ts
 * import { didYouMean } from "./did_you_mean.ts";
 * didYouMean("lmit", ["limit", "offset"], (n) => `--${n}`); // ": did you mean --limit?"
 * ```
 */
export function didYouMean(
  typed: string,
  known: readonly string[],
  spell: (name: string) => string = (n) => n,
): string {
  const name = closestName(typed, known);
  return name === null ? "" : `: did you mean ${spell(name)}?`;
}
