/**
 * One line of text per record, built by DuckDB: the record's JSON (as data
 * pages write it) or its CSV line (as `_csv.ts` writes it). Asking DuckDB for
 * finished lines instead of values is what makes exports and downloads fast:
 * turning a million records' values into JavaScript and writing them there
 * cost three to four times what DuckDB takes to build the lines
 * (docs/benchmarks.md, "downloads").
 *
 * Only columns of the types below are built here; a version with any other
 * column (dates, lists, structs, blobs, ...) takes the JavaScript writers.
 *
 * @module
 */
import { sqlIdent, sqlString } from "./_duckdb.ts";
import { EXTRA_COLUMN } from "./rows.ts";

/** Column types whose JSON text DuckDB writes exactly as the record encoder does. */
const SQL_TEXT_TYPES =
  /^(VARCHAR|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;

/** A column: its name and DuckDB type. */
export interface LineColumn {
  /** Name. */
  name: string;
  /** DuckDB's type, as DESCRIBE spells it. */
  type: string;
  /** Whether no record holds a null in it, as the parts' footers count (see `_footer_facts.ts`). */
  nonNull?: boolean;
}

/**
 * Whether DuckDB can write every column of `columns` as the JavaScript
 * writers do.
 *
 * @example
 * ```ts
 * import { sqlWritable } from "./_line_sql.ts";
 * sqlWritable([{ name: "id", type: "BIGINT" }]); // true
 * sqlWritable([{ name: "day", type: "DATE" }]); // false
 * ```
 */
export function sqlWritable(columns: readonly LineColumn[]): boolean {
  return columns.every((c) => SQL_TEXT_TYPES.test(c.type));
}

/**
 * The JSON text of a value of column `c` (quoted) of type `type`, as the
 * JavaScript writers give it, and NULL for a null: decimals with their
 * scale, integers and booleans as DuckDB casts them to text (`to_json`'s
 * text, for less), NaN and infinities as null, 32-bit floats by their
 * shortest text, doubles as `JSON.stringify` writes them (DuckDB's shortest
 * digits are the same; whole ones lose its `.0`, and exponents of 1e21 and
 * up take a `+`), the common double, not whole, settled by the first test.
 */
function jsonValueSql(c: string, type: string): string {
  if (type.startsWith("DECIMAL")) return `CAST(${c} AS VARCHAR)`;
  if (type === "VARCHAR") return `CAST(to_json(${c}) AS VARCHAR)`;
  if (type !== "FLOAT" && type !== "DOUBLE") return `CAST(${c} AS VARCHAR)`;
  return doubleTextSql(c, type, "'null'");
}

/** A double's (or 32-bit float's) text as `JSON.stringify` writes it, `nonFinite` for NaN and infinities, NULL for a null. */
function doubleTextSql(c: string, type: string, nonFinite: string): string {
  const d = type === "FLOAT" ? `CAST(CAST(${c} AS VARCHAR) AS DOUBLE)` : c;
  const text = `CAST(to_json(${d}) AS VARCHAR)`;
  return `CASE WHEN ${d} <> floor(${d}) THEN ${text} WHEN NOT isfinite(${d}) THEN ${nonFinite} ` +
    `WHEN ${d} = floor(${d}) AND abs(${d}) < 1e15 THEN CAST(CAST(${d} AS BIGINT) AS VARCHAR) ` +
    `WHEN abs(${d}) >= 1e21 THEN replace(${text}, 'e', 'e+') ` +
    `WHEN ${d} = floor(${d}) THEN regexp_replace(${text}, '\\.0$', '') ` +
    `ELSE ${text} END`;
}

/**
 * The control characters whose JSON escape DuckDB's `to_json` writes with
 * upper-case hex digits (`\u001F`) where `JSON.stringify` writes lower-case
 * ones (`\u001f`); every other character they write alike.
 */
const UPPER_ESCAPES = Array.from({ length: 32 }, (_, code) => JSON.stringify(String.fromCharCode(code)).slice(1, -1))
  .filter((escape) => /^\\u00[0-9a-f]*[a-f]/.test(escape));

/**
 * JSON text `t` (DuckDB's, or keys `JSON.stringify` wrote) with the escapes
 * of {@linkcode UPPER_ESCAPES} as `JSON.stringify` writes them. An escaped
 * backslash (`\\`) is set aside first (as `chr(1)`, which JSON text holds
 * only escaped), so that a string holding the text `\u001F` stays as it is.
 *
 * @example
 * ```ts
 * import { lowerEscapesSql } from "./_line_sql.ts";
 * lowerEscapesSql("t"); // "replace(replace(... replace(t, '\\', chr(1)) ...), chr(1), '\\')"
 * ```
 */
export function lowerEscapesSql(t: string): string {
  let text = `replace(${t}, '\\\\', chr(1))`;
  for (const escape of UPPER_ESCAPES) {
    text = `replace(${text}, ${sqlString(escape.toUpperCase().replace("\\U", "\\u"))}, ${sqlString(escape)})`;
  }
  return `replace(${text}, chr(1), '\\\\')`;
}

/**
 * The SQL of one member of a record's JSON (`"name":value`), NULL when the
 * column is null (so `concat_ws` leaves it out); `_extra`'s members inlined.
 * `exact` writes strings' escapes as `JSON.stringify` does (see
 * {@linkcode lowerEscapesSql}).
 *
 * @example
 * ```ts
 * import { memberSql } from "./_line_sql.ts";
 * memberSql("id", "BIGINT"); // '"id":' || the value's JSON (NULL when it is null)
 * ```
 */
export function memberSql(name: string, type: string, exact = false): string {
  const c = sqlIdent(name);
  if (name === EXTRA_COLUMN && type === "VARCHAR") {
    const inner = `trim(substr(trim(${c}), 2, length(trim(${c})) - 2))`;
    return `CASE WHEN starts_with(trim(${c}), '{') AND ends_with(trim(${c}), '}') AND ${inner} <> '' THEN ${inner} END`;
  }
  return `${sqlString(JSON.stringify(name) + ":")} || ${memberValueSql(c, type, exact)}`;
}

/** A member's value (see {@linkcode memberSql}): its JSON text, its escapes mended when `exact`. */
function memberValueSql(c: string, type: string, exact: boolean): string {
  return exact && type === "VARCHAR" ? lowerEscapesSql(jsonValueSql(c, type)) : jsonValueSql(c, type);
}

/** A record's line as SQL: over its columns, and how a line that may be wrong is made again. */
export interface LineSql {
  /** The line, over the record's columns. */
  line: string;
  /** When set, the line is wrong where `when` (over the first line, named `__svc_first`) holds, and `exact` then. */
  fix: { when: string; exact: string } | null;
}

/** What the first try at a line is called while it is checked. */
const FIRST = "__svc_first";

/**
 * The SQL of a record's JSON text over `columns` (null columns left out,
 * `_extra` folded in), or null when a column's type is not written here. A
 * line holding an escape (`\u00..`, a control character in a string) has
 * its escapes written as `JSON.stringify` does: one cheap test a line, and
 * the rare line that holds one pays for the exact escapes. Without an
 * `_extra` column the line is mended whole; with one, its strings are (its
 * members are the stored text, as the JavaScript writers give them).
 *
 * When the first column holds no null (`nonNull`), the line is one
 * `concat` of every member's key and value, a member that may be null
 * joined with its comma first (`concat` leaves a null out): over a million
 * records DuckDB wrote the lines in 0.99x of its `COPY (FORMAT json)`, where
 * the members joined by `concat_ws` took 1.33x.
 *
 * @example
 * ```ts
 * import { jsonLineSql } from "./_line_sql.ts";
 * jsonLineSql([{ name: "id", type: "BIGINT" }])?.line; // "concat('{', concat_ws(',', ...), '}')"
 * ```
 */
export function jsonLineSql(columns: readonly LineColumn[]): LineSql | null {
  if (!sqlWritable(columns)) return null;
  const line = columns[0]?.nonNull && columns[0].name !== EXTRA_COLUMN
    ? (exact: boolean) => flatLine(columns, exact)
    : (exact: boolean) =>
      `concat('{', concat_ws(',', ${columns.map((c) => memberSql(c.name, c.type, exact)).join(", ")}), '}')`;
  if (!columns.some((c) => c.type === "VARCHAR" && c.name !== EXTRA_COLUMN)) return { line: line(false), fix: null };
  const exact = columns.some((c) => c.name === EXTRA_COLUMN) ? line(true) : lowerEscapesSql(FIRST);
  return { line: line(false), fix: { when: `contains(${FIRST}, '\\u00')`, exact } };
}

/** A line whose first column holds no null, as one `concat` (see {@linkcode jsonLineSql}). */
function flatLine(columns: readonly LineColumn[], exact: boolean): string {
  const pieces = columns.map((c, i) => {
    if (i > 0 && (!c.nonNull || c.name === EXTRA_COLUMN)) return `',' || ${memberSql(c.name, c.type, exact)}`;
    const key = sqlString((i === 0 ? "{" : ",") + JSON.stringify(c.name) + ":");
    return `${key}, ${memberValueSql(sqlIdent(c.name), c.type, exact)}`;
  });
  return `concat(${pieces.join(", ")}, '}')`;
}

/**
 * The SELECT of every record's line as `alias`, and the columns `keep`,
 * over `from` (a `FROM ... [WHERE ...]` clause).
 *
 * @example
 * ```ts
 * import { csvLineSql, linesSelect } from "./_line_sql.ts";
 * linesSelect(csvLineSql([{ name: "id", type: "BIGINT" }])!, "l", [], "FROM t");
 * ```
 */
export function linesSelect(sql: LineSql, alias: string, keep: readonly string[], from: string): string {
  const kept = keep.map((k) => `, ${k}`).join("");
  if (sql.fix === null) return `SELECT ${sql.line} AS ${alias}${kept} ${from}`;
  return `SELECT CASE WHEN ${sql.fix.when} THEN ${sql.fix.exact} ELSE ${FIRST} END AS ${alias}${kept} ` +
    `FROM (SELECT ${sql.line} AS ${FIRST}, * ${from})`;
}

/**
 * The SQL of one CSV field of column `name` (see `_csv.ts`): empty for a
 * null (and NaN or an infinity), text as it is, quoted when it holds a comma,
 * a double quote, CR or LF, starts or ends with a space or tab, or is empty;
 * anything else as its JSON text. Text is tested by `contains` and the like,
 * which DuckDB runs over a column's dictionary once per dictionary; for a
 * `sparse` view (few records of each chunk) by one regular expression a
 * value instead (see `_view_lines.ts`, `sparseView`).
 */
function csvFieldSql(column: LineColumn, sparse: boolean): string {
  const c = sqlIdent(column.name);
  const orEmpty = (text: string) => column.nonNull ? text : `coalesce(${text}, '')`;
  if (column.type === "VARCHAR") {
    const quoted = `'"' || replace(${c}, '"', '""') || '"'`;
    const test = sparse
      ? `regexp_matches(${c}, '^$|[,"\\r\\n]|^[ \\t]|[ \\t]$')`
      : [`${c} = ''`, ...[`','`, `'"'`, "chr(10)", "chr(13)"].map((s) => `contains(${c}, ${s})`)]
        .concat([`' '`, "chr(9)"].flatMap((s) => [`starts_with(${c}, ${s})`, `ends_with(${c}, ${s})`])).join(" OR ");
    return `CASE ${column.nonNull ? "" : `WHEN ${c} IS NULL THEN '' `}WHEN ${test} THEN ${quoted} ELSE ${c} END`;
  }
  if (column.type === "FLOAT" || column.type === "DOUBLE") return orEmpty(doubleTextSql(c, column.type, "''"));
  return orEmpty(jsonValueSql(c, column.type));
}

/**
 * The SQL of a record's CSV line over `columns`, without its line end, or
 * null when a column's type is not written here; `sparse` for a view that
 * passes few of the records read (the same line, tested another way).
 *
 * @example
 * ```ts
 * import { csvLineSql } from "./_line_sql.ts";
 * csvLineSql([{ name: "id", type: "BIGINT" }, { name: "s", type: "VARCHAR" }])?.line; // "concat(..., ',', ...)"
 * ```
 */
export function csvLineSql(columns: readonly LineColumn[], sparse = false): LineSql | null {
  if (!sqlWritable(columns)) return null;
  if (columns.length === 1) return { line: csvFieldSql(columns[0], sparse), fix: null };
  // No field is null: concat with the commas as pieces of its own costs less than concat_ws.
  return { line: `concat(${columns.map((c) => csvFieldSql(c, sparse)).join(", ',', ")})`, fix: null };
}
