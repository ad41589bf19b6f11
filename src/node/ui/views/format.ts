/**
 * Numbers as the pages show them: counts with thousands separators
 * (`24,323 records`), figures of the data (statistics' bounds, means and
 * quantiles) with them from five digits on, so that a year stays `1998`;
 * the records' own values are shown as they are, elsewhere.
 *
 * @module
 */

/** `text` (a number as JavaScript writes it) with thousands separated by commas, sign and fraction kept. */
function grouped(text: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  return m ? m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (m[3] ?? "") : text;
}

/**
 * A count: a whole number with thousands separators; anything else as
 * text (`—` for none).
 *
 * @example
 * ```ts
 * import { count } from "./format.ts";
 * count(24323); // "24,323"
 * count(999); // "999"
 * count(null); // "—"
 * ```
 */
export function count(n: unknown): string {
  if (typeof n === "number" || typeof n === "bigint") return grouped(String(n));
  return n === null || n === undefined ? "—" : String(n);
}

/**
 * A figure of the data: integers whole, others to four significant digits,
 * with thousands separators from five whole digits on (`12,345`, `1998`).
 *
 * @example
 * ```ts
 * import { figure } from "./format.ts";
 * figure(2 / 3); // "0.6667"
 * figure(22315474); // "22,315,474"
 * figure(1998); // "1998"
 * figure(12345.678); // "12,350"
 * ```
 */
export function figure(n: unknown): string {
  if (typeof n !== "number") return n === null || n === undefined ? "—" : String(n);
  const shown = Number.isInteger(n) ? n : Number(n.toPrecision(4));
  return Math.abs(shown) >= 10000 ? grouped(String(shown)) : String(shown);
}
