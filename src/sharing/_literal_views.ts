/**
 * How a predicate's literal meets a column's statistics: the column's kind,
 * the literal's type and, in a JSON tree, the type the column is cast to
 * decide in which order the two compare. A pairing that could compare in
 * an order other than the statistics' (a string against a number, a cast
 * that truncates) has no reading, and the file is then kept.
 *
 * @module
 */
import {
  type ColumnKind,
  compareExact,
  compareUtf8,
  dayOf,
  type ExactNumber,
  exactNumber,
  instantOf,
} from "./stat_order.ts";

/** A literal of a predicate: its text and what it was given as. */
export interface Literal {
  /** `number` (SQL numbers; JSON `int`, `long`, `float`, `double`), `string`, `bool`, `date` or `timestamp`. */
  type: "number" | "string" | "bool" | "date" | "timestamp";
  /** The JSON literal's type when it came from a JSON tree (`int`, `long`, ...). */
  valueType?: string;
  /** The value as written. */
  text: string;
}

/** One reading of a column's bounds and a literal in a common order. */
export interface ValueView {
  /** A bound's text read in this order, or null when it does not read. */
  read(text: string): unknown | null;
  /** The order. */
  compare(a: unknown, b: unknown): number;
  /** The literal, read. */
  value: unknown;
  /** Whether the column may hold NaN, which sorts after every number. */
  nan: boolean;
}

/** The JSON column types a column of each kind may be cast to without leaving its statistics' order. */
const CASTS: Readonly<Record<ColumnKind, readonly string[]>> = {
  int: ["int", "long", "float", "double"],
  decimal: ["float", "double"],
  float: ["float", "double"],
  double: ["float", "double"],
  string: ["string"],
  bool: ["bool"],
  date: ["date"],
  timestamp: ["timestamp"],
  timestamptz: ["timestamp"],
};

const natural = (
  a: unknown,
  b: unknown,
) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);

function double(text: string): number | null {
  if (exactNumber(text) === null) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function single(text: string): number | null {
  const n = double(text);
  return n === null ? null : Math.fround(n);
}

function view(read: (t: string) => unknown | null, value: unknown, compare = natural, nan = false): ValueView {
  return { read, compare, value, nan };
}

function floatViews(kind: ColumnKind, lit: Literal, columnType: string | undefined): ValueView[] | null {
  const value = double(lit.text);
  if (value === null) return null;
  const nan = kind === "float" || kind === "double";
  // A FLOAT column, or a cast to float: the literal may be rounded to a float as well, or not; either may match.
  const narrow = kind === "float" || columnType === "float" || lit.valueType === "float";
  const bound = kind === "float" || columnType === "float" ? single : double;
  const views = [view(bound, value, natural, nan)];
  if (narrow) views.push(view(bound, Math.fround(value), natural, nan));
  return views;
}

function numberViews(kind: ColumnKind, lit: Literal, columnType: string | undefined): ValueView[] | null {
  if ((lit.valueType === "int" || lit.valueType === "long") && !/^[+-]?\d+$/.test(lit.text.trim())) return null;
  const floating = (t: string | undefined) => t === "float" || t === "double";
  if (kind === "float" || kind === "double" || floating(columnType) || floating(lit.valueType)) {
    return floatViews(kind, lit, columnType);
  }
  const value = exactNumber(lit.text);
  if (value === null) return null;
  return [view(exactNumber, value, (a, b) => compareExact(a as ExactNumber, b as ExactNumber))];
}

function timeViews(kind: ColumnKind, lit: Literal): ValueView[] | null {
  const instant = instantOf(lit.text);
  // A zoned column's bounds are instants: a literal without an offset depends on the reader's time zone.
  if (instant === null || (kind === "timestamptz" && !instant.zoned)) return null;
  return [view((t) => instantOf(t)?.ns ?? null, instant.ns)];
}

/**
 * The readings under which literal `lit` compares with the statistics of a
 * column of kind `kind` (cast to `columnType` in a JSON tree); null when
 * they do not compare in the statistics' order.
 *
 * @example
 * ```ts
 * import { literalViews } from "./_literal_views.ts";
 * literalViews("string", { type: "string", text: "Ａ" })?.length; // 1
 * literalViews("string", { type: "number", text: "1" }); // null
 * ```
 */
export function literalViews(kind: ColumnKind, lit: Literal, columnType?: string): ValueView[] | null {
  if (columnType !== undefined && !CASTS[kind].includes(columnType)) return null;
  const fromTree = lit.valueType !== undefined;
  switch (kind) {
    case "int":
    case "decimal":
    case "float":
    case "double":
      return lit.type === "number" ? numberViews(kind, lit, columnType) : null;
    case "string":
      return lit.type === "string" ? [view((t) => t, lit.text, (a, b) => compareUtf8(a as string, b as string))] : null;
    case "bool":
      return lit.type === "bool" && /^(true|false)$/.test(lit.text)
        ? [view((t) => (t === "true" ? true : t === "false" ? false : null), lit.text === "true")]
        : null;
    case "date": {
      // SQL compares a date with a string literal as a date; a JSON tree says `date`.
      const day = lit.type === "date" || (lit.type === "string" && !fromTree) ? dayOf(lit.text) : null;
      return day === null ? null : [view(dayOf, day)];
    }
    case "timestamp":
    case "timestamptz":
      return lit.type === "timestamp" || (lit.type === "string" && !fromTree) ? timeViews(kind, lit) : null;
  }
}
