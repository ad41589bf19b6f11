/**
 * Skipping files by their statistics, best effort as the protocol allows:
 * `jsonPredicateHints` (the JSON tree) and the simple `predicateHints`
 * (`col = 123`, `'foo' < col`, `col IS NULL`, ...) become one predicate
 * form; a file is skipped only when its min/max/null counts prove that no
 * row can match. Values are compared in the order Parquet wrote the
 * statistics in (see `stat_order.ts`), under SQL's three-valued logic (a
 * null matches no comparison), with a float column's NaN (greater than
 * every number, and left out of statistics by some writers) always
 * possible. Anything not understood keeps every file.
 *
 * @module
 */
import type { ColumnFacts, FileFacts } from "./file_stats.ts";
import { type Literal, literalViews, type ValueView } from "./_literal_views.ts";

export type { Literal };

/** The comparisons. */
export type Comparison = "=" | "<" | "<=" | ">" | ">=" | "<>";

/** A predicate over one file's statistics. */
export type Predicate =
  | { op: "and" | "or"; children: Predicate[] }
  | { op: "not"; child: Predicate }
  | { op: "isNull"; column: string }
  | { op: "compare"; cmp: Comparison; column: string; columnType?: string; value: Literal }
  | { op: "unknown" };

const UNKNOWN: Predicate = { op: "unknown" };

/** The deepest JSON tree read; a deeper one is not understood (every file kept). */
const MAX_TREE_DEPTH = 64;

const JSON_CMP: Readonly<Record<string, Comparison>> = {
  equal: "=",
  lessThan: "<",
  lessThanOrEqual: "<=",
  greaterThan: ">",
  greaterThanOrEqual: ">=",
};
const FLIPPED: Readonly<Record<Comparison, Comparison>> = {
  "=": "=",
  "<>": "<>",
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

type Json = { op?: unknown; children?: unknown; name?: unknown; value?: unknown; valueType?: unknown };

const LITERAL_TYPES: Readonly<Record<string, Literal["type"]>> = {
  int: "number",
  long: "number",
  float: "number",
  double: "number",
  string: "string",
  bool: "bool",
  date: "date",
  timestamp: "timestamp",
};

function literal(node: Json): Literal | undefined {
  if (typeof node.value !== "string" || typeof node.valueType !== "string") return undefined;
  const type = LITERAL_TYPES[node.valueType];
  return type ? { type, valueType: node.valueType, text: node.value } : undefined;
}

function comparisonOf(cmp: Comparison, column: Json, value: Json): Predicate {
  if (typeof column.name !== "string") return UNKNOWN;
  const lit = literal(value);
  if (lit === undefined) return UNKNOWN;
  const columnType = typeof column.valueType === "string" ? column.valueType : undefined;
  return { op: "compare", cmp, column: column.name, ...(columnType ? { columnType } : {}), value: lit };
}

function fromJson(node: Json, depth: number): Predicate {
  if (depth > MAX_TREE_DEPTH || typeof node !== "object" || node === null) return UNKNOWN;
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
    if (a?.op === "column" && b?.op === "literal") return comparisonOf(cmp, a, b);
    if (b?.op === "column" && a?.op === "literal") return comparisonOf(FLIPPED[cmp], b, a);
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

function sqlValue(text: string): Literal {
  if (text.startsWith("'")) return { type: "string", text: text.slice(1, -1).replaceAll("''", "'") };
  if (/^(true|false)$/i.test(text)) return { type: "bool", text: text.toLowerCase() };
  return { type: "number", text };
}

function column(text: string): string {
  return text.startsWith("`") ? text.slice(1, -1) : text;
}

function cmpOf(text: string): Comparison {
  return text === "!=" ? "<>" : text as Comparison;
}

/**
 * The predicate of one of `predicateHints`' SQL expressions; unknown for
 * anything but the protocol's simple comparisons and null tests.
 *
 * @example
 * ```ts
 * import { parseSqlPredicate } from "./predicates.ts";
 * parseSqlPredicate("population >= 1000");
 * // { op: "compare", cmp: ">=", column: "population", value: { type: "number", text: "1000" } }
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

/** What a file's statistics allow of a predicate: whether some row may make it true, and some row false. */
interface Verdict {
  mayBeTrue: boolean;
  mayBeFalse: boolean;
}

const EITHER: Verdict = { mayBeTrue: true, mayBeFalse: true };

/** The verdict of `cmp` against one reading of the column's bounds and the literal. */
function compareIn(cmp: Comparison, facts: ColumnFacts, view: ValueView): Verdict {
  const lo = facts.min === null ? null : view.read(facts.min);
  const hi = facts.max === null ? null : view.read(facts.max);
  if (lo === null || hi === null) return EITHER;
  const atLo = view.compare(lo, view.value);
  const atHi = view.compare(hi, view.value);
  const nan = view.nan; // a NaN row is greater than every number: true for > >= <>, false for = < <=
  const inside = atLo <= 0 && atHi >= 0;
  const onlyValue = atLo === 0 && atHi === 0;
  switch (cmp) {
    case "=":
      return { mayBeTrue: inside, mayBeFalse: !onlyValue || nan };
    case "<>":
      return { mayBeTrue: !onlyValue || nan, mayBeFalse: inside };
    case "<":
      return { mayBeTrue: atLo < 0, mayBeFalse: atHi >= 0 || nan };
    case "<=":
      return { mayBeTrue: atLo <= 0, mayBeFalse: atHi > 0 || nan };
    case ">":
      return { mayBeTrue: atHi > 0 || nan, mayBeFalse: atLo <= 0 };
    case ">=":
      return { mayBeTrue: atHi >= 0 || nan, mayBeFalse: atLo < 0 };
  }
}

function compare(p: Extract<Predicate, { op: "compare" }>, file: FileFacts): Verdict {
  const facts = file.columns.get(p.column);
  if (!facts) return EITHER;
  // Every row null: no comparison is true, and none false (each is null).
  if (facts.nulls !== null && facts.nulls === file.numRecords && file.numRecords > 0) {
    return { mayBeTrue: false, mayBeFalse: false };
  }
  const views = facts.kind === null ? null : literalViews(facts.kind, p.value, p.columnType);
  if (views === null || views.length === 0) return EITHER;
  // Where the literal may be read more than one way (a FLOAT column), a row may match under any of them.
  const verdicts = views.map((v) => compareIn(p.cmp, facts, v));
  return { mayBeTrue: verdicts.some((v) => v.mayBeTrue), mayBeFalse: verdicts.some((v) => v.mayBeFalse) };
}

function judge(p: Predicate, file: FileFacts): Verdict {
  switch (p.op) {
    case "unknown":
      return EITHER;
    case "and": {
      const kids = p.children.map((c) => judge(c, file));
      return { mayBeTrue: kids.every((k) => k.mayBeTrue), mayBeFalse: kids.some((k) => k.mayBeFalse) };
    }
    case "or": {
      const kids = p.children.map((c) => judge(c, file));
      return { mayBeTrue: kids.some((k) => k.mayBeTrue), mayBeFalse: kids.every((k) => k.mayBeFalse) };
    }
    case "not": {
      const inner = judge(p.child, file);
      return { mayBeTrue: inner.mayBeFalse, mayBeFalse: inner.mayBeTrue };
    }
    case "isNull": {
      const nulls = file.columns.get(p.column)?.nulls ?? null;
      if (nulls === null) return EITHER;
      return { mayBeTrue: nulls > 0, mayBeFalse: nulls < file.numRecords };
    }
    case "compare":
      return compare(p, file);
  }
}

/**
 * Whether a file with statistics `file` may hold a row matching `p`
 * (false only when its statistics prove none does).
 *
 * @example
 * ```ts
 * import { mayMatch, parseSqlPredicate } from "./predicates.ts";
 * const file = {
 *   numRecords: 2,
 *   columns: new Map([["id", { kind: "int" as const, min: "1", max: "2", nulls: 0 }]]),
 * };
 * mayMatch(parseSqlPredicate("id > 5"), file); // false
 * ```
 */
export function mayMatch(p: Predicate, file: FileFacts): boolean {
  return judge(p, file).mayBeTrue;
}
