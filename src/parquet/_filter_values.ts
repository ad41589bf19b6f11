/**
 * Whether a view's filter value is of its column's type, decided from its
 * text before any record is read: DuckDB casts a parameter only when a row
 * reaches the comparison, so a value that was no number of its column was
 * refused, or not, by what the other filters had left (`score__gte=abc` was
 * 400 alone and 200 with no records beside `country__in=a`), and a number
 * it could round was taken (`id__gt=1.5` was `id > 2`, leaving out 2).
 *
 * @module
 */

/** The integer types and the values each holds. */
const INTEGERS: Readonly<Record<string, readonly [bigint, bigint]>> = {
  TINYINT: [-(2n ** 7n), 2n ** 7n - 1n],
  SMALLINT: [-(2n ** 15n), 2n ** 15n - 1n],
  INTEGER: [-(2n ** 31n), 2n ** 31n - 1n],
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n],
  HUGEINT: [-(2n ** 127n), 2n ** 127n - 1n],
  UTINYINT: [0n, 2n ** 8n - 1n],
  USMALLINT: [0n, 2n ** 16n - 1n],
  UINTEGER: [0n, 2n ** 32n - 1n],
  UBIGINT: [0n, 2n ** 64n - 1n],
  UHUGEINT: [0n, 2n ** 128n - 1n],
};
const WHOLE = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NOT_FINITE = /^[+-]?(inf|infinity|nan)$/i;
const DECIMAL = /^DECIMAL\((\d+),(\d+)\)$/;
const PLAIN_DECIMAL = /^[+-]?0*(\d*)(?:\.(\d*))?$/;

/**
 * Why the filter value `value` cannot be compared with a column of type
 * `type`, the end of a sentence that starts with the value; null when it
 * can. A value is compared as its column's type: an integer column takes a
 * whole number in its range, a `DECIMAL(p,s)` one a plain number of at most
 * `s` places and `p - s` digits before them, `FLOAT` and `DOUBLE` a number
 * or `inf`/`nan`; DuckDB would round `1.5` to 2 for a `BIGINT` (`id__gt=1.5`
 * leaving out 2) and `12.345` to 12.35 for a `DECIMAL(10,2)`. Types other
 * than numbers are left to DuckDB's cast.
 *
 * @example
 * ```ts
 * import { refusedFilterValue } from "./_filter_values.ts";
 * refusedFilterValue("42", "BIGINT"); // null
 * refusedFilterValue("1.5", "BIGINT"); // "is not a whole number"
 * refusedFilterValue("abc", "DOUBLE"); // "is not a number"
 * refusedFilterValue("2024-01-01", "DATE"); // null
 * ```
 */
export function refusedFilterValue(value: string, type: string): string | null {
  const text = value.trim();
  const range = INTEGERS[type];
  if (range) {
    if (!WHOLE.test(text)) return NUMBER.test(text) ? "is not a whole number" : "is not a number";
    const n = BigInt(text);
    return n >= range[0] && n <= range[1] ? null : `is out of ${type}'s range`;
  }
  const decimal = DECIMAL.exec(type);
  if (decimal) {
    const plain = PLAIN_DECIMAL.exec(text);
    if (!plain || !NUMBER.test(text)) {
      return NUMBER.test(text) ? "is not written without an exponent" : "is not a number";
    }
    const [places, whole] = [Number(decimal[2]), Number(decimal[1]) - Number(decimal[2])];
    if ((plain[2] ?? "").replace(/0+$/, "").length > places) return `has more than ${places} decimal places`;
    return plain[1].length > whole ? `is out of ${type}'s range` : null;
  }
  if (type === "FLOAT" || type === "DOUBLE") {
    return NUMBER.test(text) || NOT_FINITE.test(text) ? null : "is not a number";
  }
  return null;
}
