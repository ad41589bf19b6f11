/**
 * A view of a version's records: filtered per column, searched over the
 * string columns, sorted by one column, paged, with the view's total. Built
 * as one parameterised DuckDB query over the parts: column names are checked
 * against the parts' own columns and quoted, every value the caller gives is
 * a parameter cast to its column's type, never SQL text. Ties (and views
 * without a sort) keep the version's own order: part by part, row by row, so
 * paging a sorted view shows every record once.
 *
 * @module
 */
import type { DuckDBValue } from "@duckdb/node-api";
import { type ReadEngine, sqlIdent, sqlString } from "./_duckdb.ts";
import { recordEncoder } from "./rows.ts";

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

/** A page of a view: the records as JSON texts, and the records the whole view holds. */
export interface ViewPage {
  /** Each record as JSON text. */
  records: string[];
  /** Records in the whole view. */
  total: number;
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

const COMPARE: Partial<Record<FilterOp, string>> = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };
const PART = "__svc_part";
const ROW = "__svc_row";
const SCALAR =
  /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|VARCHAR|DATE|TIME|TIMESTAMP|TIMESTAMP WITH TIME ZONE|UUID)$/;

/** The parts as one relation, with each record's part and row for a stable order. */
function source(paths: readonly string[]): string {
  return paths
    .map((p, i) => `SELECT *, ${i} AS ${PART}, row_number() OVER () AS ${ROW} FROM read_parquet(${sqlString(p)})`)
    .join(" UNION ALL BY NAME ");
}

/** The columns of the parts (those a view may name; Delta Sharing's schema), by name in first-seen order, from DuckDB. */
export async function viewColumns(engine: ReadEngine, paths: readonly string[]): Promise<ViewColumn[]> {
  const list = `[${paths.map(sqlString).join(",")}]`;
  return await engine.use(async (c) => {
    const rows = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list}, union_by_name=true)`))
      .getRowObjectsJS();
    return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  });
}

/** The WHERE clause of `spec` and its parameters. */
function whereOf(spec: ViewSpec, columns: readonly ViewColumn[]): { sql: string; params: DuckDBValue[] } {
  const params: DuckDBValue[] = [];
  const param = (value: string, type: string) => {
    params.push(value);
    return type === "VARCHAR" ? `$${params.length}` : `CAST($${params.length} AS ${type})`;
  };
  const byName = new Map(columns.map((c) => [c.name, c]));
  const clauses = spec.filters.map((f) => {
    const column = byName.get(f.column);
    if (!column || f.column === "_extra") throw new ViewError(`no column ${JSON.stringify(f.column)} to filter on`);
    const name = sqlIdent(column.name);
    if (f.op === "isnull") return `${name} IS NULL`;
    if (f.op === "notnull") return `${name} IS NOT NULL`;
    if (!SCALAR.test(column.type)) {
      throw new ViewError(`column ${column.name} (${column.type}) can only be null or not`);
    }
    if (f.op === "contains") return `contains(CAST(${name} AS VARCHAR), ${param(f.values[0], "VARCHAR")})`;
    if (f.op === "startswith") return `starts_with(CAST(${name} AS VARCHAR), ${param(f.values[0], "VARCHAR")})`;
    if (f.op === "in") return `${name} IN (${f.values.map((v) => param(v, column.type)).join(", ")})`;
    return `${name} ${COMPARE[f.op]} ${param(f.values[0], column.type)}`;
  });
  if (spec.search !== null) {
    const strings = columns.filter((c) => c.type === "VARCHAR" && c.name !== "_extra");
    const needle = param(spec.search.toLowerCase(), "VARCHAR");
    clauses.push(
      strings.length === 0
        ? "false"
        : `(${strings.map((c) => `contains(lower(${sqlIdent(c.name)}), ${needle})`).join(" OR ")})`,
    );
  }
  return { sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, params };
}

/**
 * Records `offset` to `offset + limit` of the view `spec` of the parts at
 * `paths` (in the version's order), and the view's total.
 */
export async function viewPage(
  engine: ReadEngine,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  spec: ViewSpec,
  offset: number,
  limit: number,
): Promise<ViewPage> {
  const where = whereOf(spec, columns);
  let order = `${PART}, ${ROW}`;
  if (spec.sort) {
    const column = columns.find((c) => c.name === spec.sort!.column && c.name !== "_extra");
    if (!column) throw new ViewError(`no column ${JSON.stringify(spec.sort.column)} to sort by`);
    order = `${sqlIdent(column.name)} ${spec.sort.descending ? "DESC" : "ASC"} NULLS LAST, ${order}`;
  }
  const from = `FROM (${source(paths)}) ${where.sql}`;
  const page = `SELECT * EXCLUDE (${PART}, ${ROW}) ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  return await engine.use(async (c) => {
    const result = await c.run(page, where.params).catch((e) => {
      const message = String((e as Error)?.message);
      if (/Conversion Error|Could not convert|out of range/i.test(message)) {
        throw new ViewError(`a filter's value is not of its column's type: ${message.split("\n")[0].slice(0, 200)}`);
      }
      throw e;
    });
    const encode = recordEncoder(result);
    const records: string[] = [];
    for (const chunk of await result.fetchAllChunks()) records.push(...encode(chunk));
    const counted = await c.runAndReadAll(`SELECT count(*)::BIGINT AS n ${from}`, where.params);
    return { records, total: Number(counted.getRowObjectsJS()[0].n) };
  });
}
