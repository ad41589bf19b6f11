/**
 * The SQL of a view of a version's parts: the parts as one relation with
 * each record's part and row (for a stable order), the WHERE clause of the
 * filters and search with its parameters, and the ORDER BY of the sort.
 * Column names are checked against the parts' own columns and quoted; every
 * value the caller gives is a parameter cast to its column's type.
 *
 * @module
 */
import type { DuckDBValue } from "@duckdb/node-api";
import { sqlIdent, sqlString } from "./_duckdb.ts";
import { refusedFilterValue } from "./_filter_values.ts";

/** How a filter compares a column with its values. */
export type FilterOp =
  | "eq"
  | "ne"
  | "gt"
  | "gte"
  | "lt"
  | "lte"
  | "contains"
  | "startswith"
  | "isnull"
  | "notnull"
  | "in";

/** One filter: a column, how, and the values as text (cast to the column's type by DuckDB). */
export interface ColumnFilter {
  /** The column's name as the parts hold it. */
  column: string;
  /** The comparison. */
  op: FilterOp;
  /** The operand(s): none for isnull/notnull, 1-100 for `in`, one for the rest. */
  values: string[];
}

/** What a view shows of a version. */
export interface ViewSpec {
  /** Every filter must hold. */
  filters: ColumnFilter[];
  /** Text every shown record holds in one of its string columns (case-insensitive), or null. */
  search: string | null;
  /** The column to sort by, or null for the version's own order. */
  sort: { column: string; descending: boolean } | null;
}

/** A column of the parts: its name and DuckDB type. */
export interface ViewColumn {
  /** Name. */
  name: string;
  /** DuckDB's type, as DESCRIBE spells it. */
  type: string;
}

/** Why a view cannot be built (a column that does not exist, a value that is not of its type, ...). */
export class ViewError extends Error {}

/** The hidden columns that keep a view's order stable. */
export const PART = "__svc_part";
/** See {@linkcode PART}. */
export const ROW = "__svc_row";

const COMPARE: Readonly<Record<string, string>> = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };
const SCALAR =
  /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|VARCHAR|DATE|TIME|TIMESTAMP|TIMESTAMP WITH TIME ZONE|UUID)$/;

/** A view as SQL: `from` is `FROM ... WHERE ...` over the parts, `params` its parameters, `order` its ORDER BY list. */
export interface ViewSql {
  /** `FROM (parts) WHERE ...`: every record of the view, with {@linkcode PART} and {@linkcode ROW}. */
  from: string;
  /** The parameters `from` takes, in order. */
  params: DuckDBValue[];
  /** The ORDER BY list: the sort, then part and row. */
  order: string;
  /**
   * What follows `from` to have the view's records in its order: nothing
   * where DuckDB's scan gives them so (no sort, no `in` filter), else
   * ` ORDER BY order`. DuckDB turns a long IN list into a join, whose rows
   * come in any order (seen: a view's first record last, a first page
   * missing it).
   */
  orderBy: string;
}

/** Whether a DuckDB type is one a filter may compare (not a list, struct, map or blob). */
export function isScalar(type: string): boolean {
  return SCALAR.test(type);
}

/**
 * The column `name` of `columns` a view may use (not `_extra`), if there is
 * one: the column of that exact name, or else the one column whose name
 * differs from it only in case, as SQL over `records` finds it (parts that
 * spell a column `Id` and `id` are read as one column, named as the first
 * part has it).
 *
 * @example
 * ```ts
 * import { findViewColumn } from "./_view_sql.ts";
 * findViewColumn([{ name: "Id", type: "INTEGER" }], "id")?.name; // "Id"
 * ```
 */
export function findViewColumn(columns: readonly ViewColumn[], name: string): ViewColumn | undefined {
  const usable = columns.filter((c) => c.name !== "_extra");
  const exact = usable.find((c) => c.name === name);
  if (exact) return exact;
  const folded = usable.filter((c) => c.name.toLowerCase() === name.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

/**
 * `spec` with each column it names spelled as `columns` spell it (`id` for
 * a version whose column is `Id`, see {@linkcode findViewColumn}), so that
 * two spellings are one view; a name no column answers to is left for
 * {@linkcode viewColumn} to refuse.
 *
 * @example
 * ```ts
 * import { spelledAsColumns } from "./_view_sql.ts";
 * const spec = { filters: [{ column: "id", op: "gte" as const, values: ["1"] }], search: null, sort: null };
 * spelledAsColumns([{ name: "Id", type: "INTEGER" }], spec).filters[0].column; // "Id"
 * ```
 */
export function spelledAsColumns(columns: readonly ViewColumn[], spec: ViewSpec): ViewSpec {
  const spelled = (name: string) => findViewColumn(columns, name)?.name ?? name;
  return {
    ...spec,
    filters: spec.filters.map((f) => ({ ...f, column: spelled(f.column) })),
    sort: spec.sort && { ...spec.sort, column: spelled(spec.sort.column) },
  };
}

/** The column `name` of `columns` a view may use, or a {@linkcode ViewError} saying `what` it was for. */
export function viewColumn(columns: readonly ViewColumn[], name: string, what: string): ViewColumn {
  const column = findViewColumn(columns, name);
  if (!column) throw new ViewError(`no column ${JSON.stringify(name)} to ${what}`);
  return column;
}

/** Columns DuckDB gives every Parquet scan on request; a part with its own column of such a name hides it. */
const VIRTUAL = new Set(["file_index", "file_row_number", "filename"]);

/** Whether the parts are read by one scan numbered by DuckDB's `file_index` and `file_row_number` (no column takes those names). */
export function oneScan(columns: readonly ViewColumn[]): boolean {
  return !columns.some((c) => VIRTUAL.has(c.name));
}

/**
 * The parts as one relation, with each record's part and row for a stable
 * order: one scan of every part when they can (`file_index` and
 * `file_row_number` are free), a numbered scan per part when a part has a
 * column of those names itself.
 */
function source(paths: readonly string[], columns: readonly ViewColumn[], uniform: boolean): string {
  if (oneScan(columns)) {
    const byName = uniform ? "" : ", union_by_name = true";
    return `SELECT *, file_index AS ${PART}, file_row_number AS ${ROW} ` +
      `FROM read_parquet([${paths.map(sqlString).join(", ")}]${byName})`;
  }
  return paths
    .map((p, i) => `SELECT *, ${i} AS ${PART}, row_number() OVER () AS ${ROW} FROM read_parquet(${sqlString(p)})`)
    .join(" UNION ALL BY NAME ");
}

/** The WHERE clause of `spec` and its parameters. */
function whereOf(
  spec: ViewSpec,
  columns: readonly ViewColumn[],
  also: readonly string[],
): { sql: string; params: DuckDBValue[] } {
  const params: DuckDBValue[] = [];
  const param = (value: string, type: string, column?: string) => {
    const refused = type === "VARCHAR" ? null : refusedFilterValue(value, type);
    if (refused !== null) {
      const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
      throw new ViewError(`a filter's value is not of its column's type: ${shown} ${refused} (${column} is ${type})`);
    }
    params.push(value);
    return type === "VARCHAR" ? `$${params.length}` : `CAST($${params.length} AS ${type})`;
  };
  const clauses = spec.filters.map((f) => {
    const column = viewColumn(columns, f.column, "filter on");
    const name = sqlIdent(column.name);
    if (f.op === "isnull") return `${name} IS NULL`;
    if (f.op === "notnull") return `${name} IS NOT NULL`;
    if (!isScalar(column.type)) throw new ViewError(`column ${column.name} (${column.type}) can only be null or not`);
    if (f.op === "contains") return `contains(CAST(${name} AS VARCHAR), ${param(f.values[0], "VARCHAR")})`;
    if (f.op === "startswith") return `starts_with(CAST(${name} AS VARCHAR), ${param(f.values[0], "VARCHAR")})`;
    if (f.op === "in") return `${name} IN (${f.values.map((v) => param(v, column.type, column.name)).join(", ")})`;
    return `${name} ${COMPARE[f.op]} ${param(f.values[0], column.type, column.name)}`;
  });
  if (spec.search !== null) {
    const strings = columns.filter((c) => c.type === "VARCHAR" && c.name !== "_extra");
    if (strings.length === 0) clauses.push("false"); // and no parameter: DuckDB refuses one the statement lacks
    else {
      // Both sides lower-cased by DuckDB, as the SQL route would (JavaScript makes `İ` two characters); the cast for a
      // part whose column is not text where the others' is.
      const needle = `lower(${param(spec.search, "VARCHAR")})`;
      const each = strings.map((c) => `contains(lower(CAST(${sqlIdent(c.name)} AS VARCHAR)), ${needle})`);
      clauses.push(`(${each.join(" OR ")})`);
    }
  }
  clauses.push(...also);
  return { sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, params };
}

/**
 * The SQL of the view `spec` of the parts at `paths`, whose columns are
 * `columns`; `uniform` says every part has those columns in that order (so
 * the scan needs no `union_by_name`); `also` are conditions of the caller's
 * own (over {@linkcode PART} and {@linkcode ROW}).
 */
export function viewSql(
  paths: readonly string[],
  columns: readonly ViewColumn[],
  spec: ViewSpec,
  uniform = false,
  also: readonly string[] = [],
): ViewSql {
  const where = whereOf(spec, columns, also);
  let order = `${PART}, ${ROW}`;
  if (spec.sort) {
    const column = viewColumn(columns, spec.sort.column, "sort by");
    order = `${sqlIdent(column.name)} ${spec.sort.descending ? "DESC" : "ASC"} NULLS LAST, ${order}`;
  }
  const from = paths.length === 0
    ? `FROM (SELECT NULL AS ${PART}, NULL AS ${ROW}) WHERE false`
    : `FROM (${source(paths, columns, uniform)}) ${where.sql}`;
  return {
    from,
    params: paths.length === 0 ? [] : where.params,
    order,
    orderBy: scanKeepsOrder(spec) ? "" : ` ORDER BY ${order}`,
  };
}

/**
 * Whether DuckDB's scan of a view's parts gives its records in the view's
 * order (no sort, no `in` filter: see {@linkcode ViewSql.orderBy}).
 *
 * @example
 * ```ts
 * import { scanKeepsOrder } from "./_view_sql.ts";
 * scanKeepsOrder({ filters: [{ column: "id", op: "in", values: ["1", "2"] }], search: null, sort: null }); // false
 * ```
 */
export function scanKeepsOrder(spec: ViewSpec): boolean {
  return !spec.sort && !spec.filters.some((f) => f.op === "in");
}

/** A DuckDB error about a filter's value as a {@linkcode ViewError}; anything else unchanged. */
export function valueError(e: unknown): unknown {
  const message = String((e as Error)?.message);
  if (/Conversion Error|Could not convert|out of range/i.test(message)) {
    return new ViewError(`a filter's value is not of its column's type: ${message.split("\n")[0].slice(0, 200)}`);
  }
  return e;
}
