/**
 * Skipping files by their statistics, best effort as the protocol allows:
 * `jsonPredicateHints` (the JSON tree) and the simple `predicateHints`
 * (`col = 123`, `'foo' < col`, `col IS NULL`, ...) become one predicate
 * form; a file is skipped only when its min/max/null counts prove that no
 * row can match. Anything not understood keeps every file.
 *
 * @module
 */
import type { FileStats } from "./file_stats.ts";

/** A predicate over one file's statistics. */
export type Predicate =
  | { op: "and" | "or"; children: Predicate[] }
  | { op: "not"; child: Predicate }
  | { op: "isNull"; column: string }
  | { op: "compare"; cmp: "=" | "<" | "<=" | ">" | ">=" | "<>"; column: string; value: string | number | boolean }
  | { op: "unknown" };

const UNKNOWN: Predicate = { op: "unknown" };

const JSON_CMP: Readonly<Record<string, "=" | "<" | "<=" | ">" | ">=">> = {
  equal: "=",
  lessThan: "<",
  lessThanOrEqual: "<=",
  greaterThan: ">",
  greaterThanOrEqual: ">=",
};
const FLIPPED: Readonly<Record<string, "=" | "<" | "<=" | ">" | ">=" | "<>">> = {
  "=": "=",
  "<>": "<>",
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

type Json = { op?: unknown; children?: unknown; name?: unknown; value?: unknown; valueType?: unknown };

function literal(node: Json): string | number | boolean | undefined {
  if (typeof node.value !== "string") return undefined;
  switch (node.valueType) {
    case "int":
    case "long":
    case "float":
    case "double": {
      const n = Number(node.value);
      return Number.isFinite(n) ? n : undefined;
    }
    case "bool":
      return node.value === "true" ? true : node.value === "false" ? false : undefined;
    case "string":
      return node.value;
  }
  return undefined;
}

function fromJson(node: Json, depth: number): Predicate {
  if (depth > 64 || typeof node !== "object" || node === null) return UNKNOWN;
  const kids = Array.isArray(node.children) ? (node.children as Json[]) : [];
  if (node.op === "and" || node.op === "or") {
    return kids.length >= 1 ? { op: node.op, children: kids.map((k) => fromJson(k, depth + 1)) } : UNKNOWN;
  }
  if (node.op === "not" && kids.length === 1) return { op: "not", child: fromJson(kids[0], depth + 1) };
  if (node.op === "isNull" && kids.length === 1 && kids[0]?.op === "column" && typeof kids[0].name === "string") {
    return { op: "isNull", column: kids[0].name };
  }
  const cmp = JSON_CMP[String(node.op)];
  if (cmp && kids.length === 2) {
    const [a, b] = kids;
    if (a?.op === "column" && b?.op === "literal" && typeof a.name === "string") {
      const value = literal(b);
      return value === undefined ? UNKNOWN : { op: "compare", cmp, column: a.name, value };
    }
    if (b?.op === "column" && a?.op === "literal" && typeof b.name === "string") {
      const value = literal(a);
      return value === undefined ? UNKNOWN : { op: "compare", cmp: FLIPPED[cmp], column: b.name, value };
    }
  }
  return UNKNOWN;
}

/**
 * The predicate of a `jsonPredicateHints` string; unknown when it does not parse.
 *
 * @example
 * ```ts
 * import { parseJsonPredicate } from "./predicates.ts";
 * parseJsonPredicate('{"op":"isNull","children":[{"op":"column","name":"note","valueType":"string"}]}');
 * // { op: "isNull", column: "note" }
 * ```
 */
export function parseJsonPredicate(text: string): Predicate {
  try {
    return fromJson(JSON.parse(text), 0);
  } catch {
    return UNKNOWN;
  }
}

const IDENT = String.raw`([A-Za-z_][A-Za-z0-9_]*|` + "`[^`]+`" + String.raw`)`;
const VALUE = String.raw`('(?:[^']|'')*'|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false)`;
const CMP = String.raw`(=|<>|!=|<=|>=|<|>)`;
const COL_FIRST = new RegExp(String.raw`^\s*${IDENT}\s*${CMP}\s*${VALUE}\s*$`, "i");
const VALUE_FIRST = new RegExp(String.raw`^\s*${VALUE}\s*${CMP}\s*${IDENT}\s*$`, "i");
const NULL_TEST = new RegExp(String.raw`^\s*${IDENT}\s+IS\s+(NOT\s+)?NULL\s*$`, "i");

function sqlValue(text: string): string | number | boolean {
  if (text.startsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  return Number(text);
}

function column(text: string): string {
  return text.startsWith("`") ? text.slice(1, -1) : text;
}

function cmpOf(text: string): "=" | "<" | "<=" | ">" | ">=" | "<>" {
  return text === "!=" ? "<>" : text as "=" | "<" | "<=" | ">" | ">=" | "<>";
}

/**
 * The predicate of one of `predicateHints`' SQL expressions; unknown for
 * anything but the protocol's simple comparisons and null tests.
 *
 * @example
 * ```ts
 * import { parseSqlPredicate } from "./predicates.ts";
 * parseSqlPredicate("population >= 1000"); // { op: "compare", cmp: ">=", column: "population", value: 1000 }
 * ```
 */
export function parseSqlPredicate(text: string): Predicate {
  let m = NULL_TEST.exec(text);
  if (m) {
    const test: Predicate = { op: "isNull", column: column(m[1]) };
    return m[2] ? { op: "not", child: test } : test;
  }
  m = COL_FIRST.exec(text);
  if (m) return { op: "compare", cmp: cmpOf(m[2]), column: column(m[1]), value: sqlValue(m[3]) };
  m = VALUE_FIRST.exec(text);
  if (m) return { op: "compare", cmp: FLIPPED[cmpOf(m[2])], column: column(m[3]), value: sqlValue(m[1]) };
  return UNKNOWN;
}

type Maybe = "no" | "maybe" | "all";

function comparable(a: unknown, b: unknown): boolean {
  return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string") ||
    (typeof a === "boolean" && typeof b === "boolean");
}

function compare(p: Extract<Predicate, { op: "compare" }>, stats: FileStats): Maybe {
  const min = stats.minValues[p.column];
  const max = stats.maxValues[p.column];
  const nulls = stats.nullCount[p.column];
  if (nulls !== undefined && nulls === stats.numRecords && stats.numRecords > 0) return "no"; // all null: no comparison holds
  if (!comparable(min, p.value) || !comparable(max, p.value)) return "maybe";
  const v = p.value as number | string;
  const lo = min as number | string;
  const hi = max as number | string;
  switch (p.cmp) {
    case "=":
      return v < lo || v > hi ? "no" : "maybe";
    case "<>":
      return lo === v && hi === v && nulls === 0 ? "no" : "maybe";
    case "<":
      return lo >= v ? "no" : "maybe";
    case "<=":
      return lo > v ? "no" : "maybe";
    case ">":
      return hi <= v ? "no" : "maybe";
    case ">=":
      return hi < v ? "no" : "maybe";
  }
}

function judge(p: Predicate, stats: FileStats): Maybe {
  switch (p.op) {
    case "unknown":
      return "maybe";
    case "and":
      return p.children.some((c) => judge(c, stats) === "no") ? "no" : "maybe";
    case "or":
      return p.children.every((c) => judge(c, stats) === "no") ? "no" : "maybe";
    case "not": {
      const inner = judge(p.child, stats);
      return inner === "all" ? "no" : inner === "no" ? "all" : "maybe";
    }
    case "isNull": {
      const nulls = stats.nullCount[p.column];
      if (nulls === undefined) return "maybe";
      if (nulls === 0) return "no";
      return nulls === stats.numRecords ? "all" : "maybe";
    }
    case "compare":
      return compare(p, stats);
  }
}

/**
 * Whether a file with statistics `stats` may hold a row matching `p`
 * (false only when its statistics prove none does).
 *
 * @example
 * ```ts
 * import { mayMatch } from "./predicates.ts";
 * const stats = { numRecords: 2, minValues: { id: 1 }, maxValues: { id: 2 }, nullCount: { id: 0 } };
 * mayMatch({ op: "compare", cmp: ">", column: "id", value: 5 }, stats); // false
 * ```
 */
export function mayMatch(p: Predicate, stats: FileStats): boolean {
  return judge(p, stats) !== "no";
}
