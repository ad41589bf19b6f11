/**
 * The orders Parquet writes statistics in, so that a file's min/max are
 * compared as they were written: strings by their UTF-8 bytes (not by
 * JavaScript's UTF-16 code units, which put U+E000..U+FFFF after every
 * character beyond U+FFFF), integers and decimals exactly (never through a
 * rounding double), floats as IEEE values, dates by day and timestamps by
 * nanosecond. A value that does not read as its type has no place in the
 * order, and then nothing is concluded from it.
 *
 * @module
 */

/** How a column's values are ordered, from its DuckDB type; null for types whose statistics are not used. */
export type ColumnKind =
  | "int"
  | "decimal"
  | "float"
  | "double"
  | "string"
  | "bool"
  | "date"
  | "timestamp"
  | "timestamptz";

const INTEGER_TYPES = new Set([
  "TINYINT",
  "SMALLINT",
  "INTEGER",
  "BIGINT",
  "HUGEINT",
  "UTINYINT",
  "USMALLINT",
  "UINTEGER",
  "UBIGINT",
  "UHUGEINT",
]);
const TIMESTAMP_TYPES = new Set(["TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"]);

/**
 * The order of a column of DuckDB type `type`, or null when its statistics
 * are not compared (lists, structs, blobs, times, intervals, ...).
 *
 * @example
 * ```ts
 * import { columnKind } from "./stat_order.ts";
 * columnKind("DECIMAL(10,2)"); // "decimal"
 * columnKind("BLOB"); // null
 * ```
 */
export function columnKind(type: string): ColumnKind | null {
  const t = type.trim().toUpperCase();
  if (INTEGER_TYPES.has(t)) return "int";
  if (/^DECIMAL\(\d+,\s*\d+\)$/.test(t)) return "decimal";
  if (t === "FLOAT") return "float";
  if (t === "DOUBLE") return "double";
  if (t === "VARCHAR") return "string";
  if (t === "BOOLEAN") return "bool";
  if (t === "DATE") return "date";
  if (TIMESTAMP_TYPES.has(t)) return "timestamp";
  if (t === "TIMESTAMP WITH TIME ZONE") return "timestamptz";
  return null;
}

/**
 * Compares two strings by their UTF-8 bytes (the same as by code points),
 * as Parquet orders a string column's statistics.
 *
 * @example
 * ```ts
 * import { compareUtf8 } from "./stat_order.ts";
 * compareUtf8("\uff21", "\u{1f600}"); // -1: U+FF21 before U+1F600, though its UTF-16 unit is the larger
 * ```
 */
export function compareUtf8(a: string, b: string): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // At the first unit that differs, a surrogate (a character beyond U+FFFF) sorts after U+E000..U+FFFF.
    const rank = (u: number) => (u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u);
    return rank(x) < rank(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** An exact decimal: its sign, and its digits with the decimal point `point` digits from the left. */
export interface ExactNumber {
  /** -1, 0 or 1. */
  sign: -1 | 0 | 1;
  /** The integer part's digits, no leading zeros ("" for none). */
  whole: string;
  /** The fraction's digits, no trailing zeros. */
  fraction: string;
}

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

/**
 * The exact value of a decimal number written as text (`-12.50`, `1e3`,
 * `9007199254740993`), or null when it is not one.
 *
 * @example
 * ```ts
 * import { exactNumber } from "./stat_order.ts";
 * exactNumber("-0012.500"); // { sign: -1, whole: "12", fraction: "5" }
 * ```
 */
export function exactNumber(text: string): ExactNumber | null {
  const m = NUMBER_TEXT.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  let digits = m[2] + (m[3] ?? "");
  let point = m[2].length + Number(m[4] ?? 0);
  const lead = digits.length - digits.replace(/^0+/, "").length;
  digits = digits.slice(lead);
  point -= lead;
  digits = digits.replace(/0+$/, "");
  if (digits === "") return { sign: 0, whole: "", fraction: "" };
  const sign = m[1] === "-" ? -1 : 1;
  if (point <= 0) return { sign, whole: "", fraction: "0".repeat(-point) + digits };
  if (point >= digits.length) return { sign, whole: digits + "0".repeat(point - digits.length), fraction: "" };
  return { sign, whole: digits.slice(0, point), fraction: digits.slice(point) };
}

/**
 * Compares two exact numbers.
 *
 * @example
 * ```ts
 * import { compareExact, exactNumber } from "./stat_order.ts";
 * compareExact(exactNumber("9007199254740993")!, exactNumber("9007199254740992")!); // 1
 * ```
 */
export function compareExact(a: ExactNumber, b: ExactNumber): -1 | 0 | 1 {
  if (a.sign !== b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign === 0) return 0;
  let magnitude: -1 | 0 | 1 = 0;
  if (a.whole.length !== b.whole.length) magnitude = a.whole.length < b.whole.length ? -1 : 1;
  else if (a.whole !== b.whole) magnitude = a.whole < b.whole ? -1 : 1;
  else if (a.fraction !== b.fraction) magnitude = a.fraction < b.fraction ? -1 : 1;
  return (a.sign < 0 && magnitude !== 0 ? -magnitude : magnitude) as -1 | 0 | 1;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The day a `yyyy-mm-dd` date stands for (days since 1970-01-01), or null
 * when the text is not such a date.
 *
 * @example
 * ```ts
 * import { dayOf } from "./stat_order.ts";
 * dayOf("1970-01-02"); // 1
 * ```
 */
export function dayOf(text: string): number | null {
  const m = DATE_TEXT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant a timestamp stands for, in nanoseconds since the epoch, and
 * whether the text named its offset (`Z`, `+02`, `-08:00`); null when the
 * text is not a timestamp. Text without an offset is read as UTC.
 *
 * @example
 * ```ts
 * import { instantOf } from "./stat_order.ts";
 * instantOf("1970-01-01 00:00:01.5"); // { ns: 1500000000n, zoned: false }
 * ```
 */
export function instantOf(text: string): { ns: bigint; zoned: boolean } | null {
  const m = TIMESTAMP_TEXT.exec(text.trim());
  if (!m) return null;
  const day = dayOf(`${m[1]}-${m[2]}-${m[3]}`);
  const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (day === null || h > 23 || mi > 59 || s > 59) return null;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || 0);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const seconds = BigInt(day) * 86_400n + BigInt(h * 3600 + mi * 60 + s - offsetMinutes * 60);
  const nanos = BigInt((m[7] ?? "").padEnd(9, "0") || "0");
  return { ns: seconds * 1_000_000_000n + nanos, zoned: zone !== undefined };
}
