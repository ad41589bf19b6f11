/**
 * Statistics of a version's columns, as a Datasette user expects of a table:
 * per column its nulls and distinct values, and by the column's kind
 * min/max/mean/quantiles and a histogram (numbers), top values and lengths
 * (strings), true/false counts (booleans), first and last (dates and times).
 *
 * Three queries over the parts: one aggregate over every column at once, the
 * histograms of the number columns (their bins need the first one's min and
 * max), and the top values of the string columns. Column names come from the
 * parts and are quoted; bin bounds are parameters.
 *
 * Approximate: `distinct` (DuckDB's HyperLogLog `approx_count_distinct`,
 * never above the non-null values; exact for strings, counted while finding
 * their top values, and booleans) and the quantiles (t-digest
 * `approx_quantile`). FLOAT and DOUBLE figures leave NaN and infinities out
 * (they count in `distinct`, not in `nulls`). The `_extra` column is skipped.
 *
 * @module
 */
import {
  type DuckDBConnection,
  DuckDBDecimalValue,
  DuckDBListType,
  DuckDBListValue,
  DuckDBMapValue,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import { type ReadEngine, sqlIdent, sqlString } from "./_duckdb.ts";
import { columnWriter, float32Text } from "./json_text.ts";
import { EXTRA_COLUMN } from "./rows.ts";
import { isScalar } from "./_view_sql.ts";
import { viewShape } from "./view.ts";
import { readAll } from "./_statement.ts";

/** How a column is summarised. */
export type ColumnKind = "number" | "string" | "boolean" | "temporal" | "other";

/** A version's statistics, before the project and version are put around them. */
export interface VersionStatistics {
  /** Records in the version. */
  records: number;
  /** Columns worth faceting (2-30 distinct values, not one per record), in column order, at most 5. */
  suggestedFacets: string[];
  /** Each column's figures as JSON object text, in column order. */
  columns: string[];
}

/** Which figures are estimates: `distinct` (HyperLogLog) and `quantiles` (t-digest). */
export const APPROXIMATE_FIGURES: readonly string[] = Object.freeze(["distinct", "quantiles"]);

/** Most bins of a number column's histogram. */
export const HISTOGRAM_BINS = 20;
/** Most top values of a string column. */
export const TOP_VALUES = 10;
/** Characters of a top value shown; a longer one is cut there and ends in `…`. */
export const TOP_VALUE_CHARS = 200;

const FACET_MAX_DISTINCT = 30;
const FACETS = 5;
const QUANTILES: readonly [string, number][] = [["p05", 0.05], ["p25", 0.25], ["p50", 0.5], ["p75", 0.75], [
  "p95",
  0.95,
]];
const HUGEINT_MAX = 2n ** 127n - 1n;

const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/;
const FLOATING = /^(FLOAT|DOUBLE)$/;
const DECIMAL = /^DECIMAL\((\d+),\d+\)$/;
/** Number types whose `avg` cannot overflow its sum (the rest average as DOUBLE). */
const EXACT_SUM = /^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE)$/;
const TEMPORAL =
  /^(DATE|TIME|TIME_NS|TIME WITH TIME ZONE|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|TIMESTAMP WITH TIME ZONE)$/;

/**
 * The kind of a column of DuckDB type `type` (as DESCRIBE spells it).
 *
 * @example
 * ```ts
 * import { columnKind } from "./statistics.ts";
 * columnKind("DECIMAL(10,2)"); // "number"
 * columnKind("TIMESTAMP WITH TIME ZONE"); // "temporal"
 * columnKind("INTEGER[]"); // "other"
 * ```
 */
export function columnKind(type: string): ColumnKind {
  if (INTEGER.test(type) || FLOATING.test(type) || DECIMAL.test(type)) return "number";
  if (type === "VARCHAR") return "string";
  if (type === "BOOLEAN") return "boolean";
  if (TEMPORAL.test(type)) return "temporal";
  return "other";
}

/** One column and where its figures are in the aggregate's row. */
interface Plan {
  name: string;
  type: string;
  kind: ColumnKind;
  /** The column, quoted. */
  ident: string;
  /** What number figures are over: the column, or for FLOAT/DOUBLE its finite values. */
  values: string;
  /** Result column of each figure. */
  at: Record<string, number>;
}

/** The one row of a query, with its columns' types. */
interface Row {
  values: DuckDBValue[];
  types: DuckDBType[];
}

function planOf(name: string, type: string): Plan {
  const ident = sqlIdent(name);
  const values = FLOATING.test(type) ? `(CASE WHEN isfinite(${ident}) THEN ${ident} END)` : ident;
  return { name, type, kind: columnKind(type), ident, values, at: {} };
}

function meanSql(p: Plan): string {
  const width = DECIMAL.exec(p.type)?.[1];
  const exact = EXACT_SUM.test(p.type) || (width !== undefined && Number(width) <= 18);
  return exact ? `avg(${p.values})::DOUBLE` : `avg(${p.values}::DOUBLE)`;
}

/** One aggregate over every column; `otherDistinct` false leaves the distinct values of `other` columns uncounted. */
function aggregateSql(plans: Plan[], from: string, otherDistinct: boolean): string {
  const items = ["count(*)"];
  const slot = (p: Plan, figure: string, sql: string) => {
    p.at[figure] = items.length;
    items.push(sql);
  };
  for (const p of plans) {
    const { ident, values } = p;
    slot(p, "count", `count(${ident})`);
    slot(p, "distinct", p.kind === "other" && !otherDistinct ? "NULL::BIGINT" : `approx_count_distinct(${ident})`);
    if (p.kind === "number") {
      slot(p, "min", `min(${values})`);
      slot(p, "max", `max(${values})`);
      slot(p, "mean", meanSql(p));
      slot(p, "quantiles", `approx_quantile(${values}, [${QUANTILES.map((q) => q[1]).join(", ")}])`);
    } else if (p.kind === "string") {
      slot(p, "minLength", `min(length(${ident}))`);
      slot(p, "maxLength", `max(length(${ident}))`);
      slot(p, "meanLength", `avg(length(${ident}))::DOUBLE`);
    } else if (p.kind === "boolean") {
      slot(p, "true", `count_if(${ident})`);
      slot(p, "false", `count_if(NOT ${ident})`);
    } else if (p.kind === "temporal") {
      slot(p, "min", `min(${ident})`);
      slot(p, "max", `max(${ident})`);
    }
  }
  return `SELECT ${items.map((sql, i) => `${sql} AS a${i}`).join(", ")} FROM ${from}`;
}

async function oneRow(c: DuckDBConnection, sql: string, params: string[] = []): Promise<Row> {
  const reader = await readAll(c, sql, params);
  return { values: reader.getRows()[0], types: reader.columnTypes() };
}

/** The aggregate row; when DuckDB cannot count the distinct values of some `other` column, without those. */
async function aggregates(c: DuckDBConnection, plans: Plan[], from: string): Promise<Row> {
  try {
    return await oneRow(c, aggregateSql(plans, from, true));
  } catch (e) {
    if (!plans.some((p) => p.kind === "other")) throw e;
    return await oneRow(c, aggregateSql(plans, from, false));
  }
}

/** A JSON number of a double, or null when it is not finite. */
function double(value: number): string {
  return Number.isFinite(value) ? JSON.stringify(value) : "null";
}

function count(value: DuckDBValue): number {
  return value === null ? 0 : Number(value);
}

/** The value at `at` of `row` as JSON text (digits for 64-bit and wider integers, shortest text for FLOAT). */
function figure(row: Row, at: number): string {
  const value = row.values[at];
  return value === null ? "null" : columnWriter(row.types[at], "number")(value);
}

function asNumber(value: DuckDBValue): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint" || value instanceof DuckDBDecimalValue) return Number(String(value));
  return NaN;
}

/** How a number column's values fall into bins: the bin's SQL (0-based) and each bin's bounds as JSON text. */
interface Binning {
  sql: string;
  bounds: [string, string][];
}

/**
 * Equal-width bins over [min, max]. Integers get integer bounds and as many
 * bins as fit (a bin of one value each when there are at most 20); each bin
 * counts `from <= v < to`, the last one also `v == to`.
 */
function binningOf(p: Plan, min: DuckDBValue, max: DuckDBValue, param: (v: string) => string): Binning {
  if (INTEGER.test(p.type)) {
    const arith = p.type === "UHUGEINT" ? "UHUGEINT" : "HUGEINT";
    const lo = BigInt(min as bigint), hi = BigInt(max as bigint);
    if (arith === "UHUGEINT" || hi - lo <= HUGEINT_MAX) {
      const span = hi - lo + 1n;
      const width = (span + BigInt(HISTOGRAM_BINS) - 1n) / BigInt(HISTOGRAM_BINS);
      const bins = Number((span + width - 1n) / width);
      const sql = `(${p.values}::${arith} - CAST(${param(String(lo))} AS ${arith})) // ` +
        `CAST(${param(String(width))} AS ${arith})`;
      const bounds = Array.from({ length: bins }, (_, i): [string, string] => {
        const from = lo + BigInt(i) * width;
        return [String(from), String(i === bins - 1 ? hi : from + width)];
      });
      return { sql, bounds };
    }
  }
  const lo = asNumber(min), hi = asNumber(max);
  const text = (v: number) => p.type === "FLOAT" ? float32Text(Math.fround(v)) : double(v);
  if (!(hi > lo)) return { sql: `CASE WHEN ${p.values} IS NOT NULL THEN 0 END`, bounds: [[text(lo), text(hi)]] };
  let width = (hi - lo) / HISTOGRAM_BINS;
  if (!Number.isFinite(width)) width = hi / HISTOGRAM_BINS - lo / HISTOGRAM_BINS;
  // least() and greatest() skip nulls: a null value must stay null, not land in the last bin.
  const sql = `(CASE WHEN ${p.values} IS NOT NULL THEN greatest(0, least(${HISTOGRAM_BINS - 1}, ` +
    `floor((${p.values}::DOUBLE - CAST(${param(String(lo))} AS DOUBLE)) / ` +
    `CAST(${param(String(width))} AS DOUBLE)))) END)::INTEGER`;
  const bounds = Array.from(
    { length: HISTOGRAM_BINS },
    (_, i): [string, string] => [text(lo + i * width), text(i === HISTOGRAM_BINS - 1 ? hi : lo + (i + 1) * width)],
  );
  return { sql, bounds };
}

/** The histograms of the number columns that hold a value, as JSON text by column, in one query. */
async function histograms(c: DuckDBConnection, plans: Plan[], row: Row, from: string): Promise<Map<Plan, string>> {
  const params: string[] = [];
  const param = (v: string) => {
    params.push(v);
    return `$${params.length}`;
  };
  const binned: [Plan, Binning][] = [];
  for (const p of plans) {
    if (p.kind !== "number" || row.values[p.at.min] === null) continue;
    binned.push([p, binningOf(p, row.values[p.at.min], row.values[p.at.max], param)]);
  }
  const out = new Map<Plan, string>();
  if (binned.length === 0) return out;
  const items = binned.map(([, b], i) => `histogram(${b.sql}) AS h${i}`);
  const result = await oneRow(c, `SELECT ${items.join(", ")} FROM ${from}`, params);
  binned.forEach(([p, b], i) => {
    const counts = new Array<number>(b.bounds.length).fill(0);
    const map = result.values[i];
    if (map instanceof DuckDBMapValue) { for (const e of map.entries) counts[Number(e.key)] += Number(e.value); }
    const bins = b.bounds.map(([from, to], k) => `{"from":${from},"to":${to},"count":${counts[k]}}`);
    out.set(p, `[${bins.join(",")}]`);
  });
  return out;
}

/** What the top-values query learns of a string column: its top values as JSON text and how many distinct values it holds. */
interface TopValues {
  values: string[];
  distinct: number;
}

/** The top values of the string columns (count descending, then value) and their exact distinct counts, in one query. */
async function topValues(c: DuckDBConnection, plans: Plan[], from: string): Promise<Map<Plan, TopValues>> {
  const strings = plans.filter((p) => p.kind === "string");
  const out = new Map<Plan, TopValues>(strings.map((p) => [p, { values: [], distinct: 0 }]));
  if (strings.length === 0) return out;
  const groups = strings.map((p, i) =>
    `SELECT ${i} AS k, ${p.ident} AS v, count(*) AS n FROM ${from} WHERE ${p.ident} IS NOT NULL GROUP BY ${p.ident}`
  );
  const sql = `WITH g AS (${groups.join(" UNION ALL ")}), ` +
    `r AS (SELECT k, v, n, row_number() OVER (PARTITION BY k ORDER BY n DESC, v ASC) AS rank, ` +
    `count(*) OVER (PARTITION BY k) AS groups FROM g) ` +
    `SELECT k, CASE WHEN length(v) > ${TOP_VALUE_CHARS} THEN left(v, ${TOP_VALUE_CHARS}) || '…' ELSE v END, ` +
    `n, groups FROM r WHERE rank <= ${TOP_VALUES} ORDER BY k, rank`;
  for (const [k, v, n, distinct] of (await c.runAndReadAll(sql)).getRows()) {
    const top = out.get(strings[Number(k)])!;
    top.values.push(`{"value":${JSON.stringify(String(v))},"count":${Number(n)}}`);
    top.distinct = Number(distinct);
  }
  return out;
}

/** The quantiles of a number column; an integer column's are kept within its min and max. */
function quantilesText(p: Plan, row: Row): string {
  const list = row.values[p.at.quantiles];
  const items = list instanceof DuckDBListValue ? list.items : [];
  const type = row.types[p.at.quantiles];
  const write = columnWriter(type instanceof DuckDBListType ? type.valueType : type, "number");
  const [min, max] = [row.values[p.at.min], row.values[p.at.max]];
  const fields = QUANTILES.map(([name], i) => {
    const q = items[i] ?? null;
    if (q === null) return `"${name}":null`;
    if (!INTEGER.test(p.type) || min === null || max === null) return `"${name}":${write(q)}`;
    if (typeof q === "number" && !Number.isFinite(q)) return `"${name}":null`;
    const v = typeof q === "number" ? BigInt(Math.round(q)) : BigInt(q as bigint);
    const lo = BigInt(min as bigint), hi = BigInt(max as bigint);
    return `"${name}":${v < lo ? lo : v > hi ? hi : v}`;
  });
  return `{${fields.join(",")}}`;
}

/** The figures of one column by its kind, as JSON members after `name`, `type`, `kind`, `nulls` and `distinct`. */
function kindFigures(p: Plan, row: Row, histogram: string | undefined, top: TopValues | undefined): string {
  const at = p.at;
  switch (p.kind) {
    case "number":
      return `"min":${figure(row, at.min)},"max":${figure(row, at.max)},"mean":${
        double(asNumber(row.values[at.mean]))
      },` +
        `"quantiles":${quantilesText(p, row)},"histogram":${histogram ?? "[]"}`;
    case "string":
      return `"topValues":[${top?.values.join(",") ?? ""}],"lengths":{"min":${figure(row, at.minLength)},` +
        `"max":${figure(row, at.maxLength)},"mean":${double(asNumber(row.values[at.meanLength]))}}`;
    case "boolean":
      return `"trueCount":${count(row.values[at.true])},"falseCount":${count(row.values[at.false])}`;
    case "temporal":
      return `"min":${figure(row, at.min)},"max":${figure(row, at.max)}`;
    default:
      return "";
  }
}

/**
 * Distinct values of a column: exact for strings and booleans, DuckDB's
 * estimate otherwise (never more than the values there are; null when
 * uncounted).
 */
function distinctOf(p: Plan, row: Row, top: TopValues | undefined, nonNull: number): number | null {
  if (p.kind === "string" && top) return top.distinct;
  if (p.kind === "boolean") return Number(count(row.values[p.at.true]) > 0) + Number(count(row.values[p.at.false]) > 0);
  const value = row.values[p.at.distinct];
  return value === null ? null : Math.min(Number(value), nonNull);
}

/**
 * The statistics of the version whose parts are at `paths` (see the module's
 * notes): records, suggested facets and every column's figures but
 * `_extra`'s. A version of no parts has no columns.
 *
 * @example
 * ```ts
 * import { columnStatistics, openReadEngine } from "./mod.ts";
 * const engine = await openReadEngine(await Deno.makeTempDir());
 * await columnStatistics(engine, []); // { records: 0, suggestedFacets: [], columns: [] }
 * await engine.close();
 * ```
 */
export async function columnStatistics(engine: ReadEngine, paths: readonly string[]): Promise<VersionStatistics> {
  if (paths.length === 0) return { records: 0, suggestedFacets: [], columns: [] };
  const shape = await viewShape(engine, paths);
  const plans = shape.columns.filter((c) => c.name !== EXTRA_COLUMN).map((c) => planOf(c.name, c.type));
  const from = `read_parquet([${paths.map(sqlString).join(", ")}]${shape.uniform ? "" : ", union_by_name=true"})`;
  return await engine.use(async (c) => {
    const row = await aggregates(c, plans, from);
    const bins = await histograms(c, plans, row, from);
    const tops = await topValues(c, plans, from);
    const records = count(row.values[0]);
    const suggestedFacets: string[] = [];
    const columns = plans.map((p) => {
      const top = tops.get(p);
      const nonNull = count(row.values[p.at.count]);
      const distinct = distinctOf(p, row, top, nonNull);
      if (
        distinct !== null && distinct >= 2 && distinct <= FACET_MAX_DISTINCT && distinct < nonNull &&
        isScalar(p.type) && suggestedFacets.length < FACETS
      ) suggestedFacets.push(p.name);
      const figures = kindFigures(p, row, bins.get(p), top);
      return `{"name":${JSON.stringify(p.name)},"type":${JSON.stringify(p.type)},"kind":"${p.kind}",` +
        `"nulls":${records - nonNull},"distinct":${distinct}${figures ? "," + figures : ""}}`;
    });
    return { records, suggestedFacets, columns };
  });
}

/**
 * The answer of `GET /projects/{slug}/statistics` for version `version` of
 * `project` with statistics `stats`.
 *
 * @example
 * ```ts
 * import { statisticsText } from "./statistics.ts";
 * JSON.parse(statisticsText("world-cities", 3, { records: 0, suggestedFacets: [], columns: [] })).approximate;
 * // ["distinct", "quantiles"]
 * ```
 */
export function statisticsText(project: string, version: number, stats: VersionStatistics): string {
  return `{"project":${JSON.stringify(project)},"version":${version},"records":${stats.records},` +
    `"approximate":${JSON.stringify(APPROXIMATE_FIGURES)},"suggestedFacets":${JSON.stringify(stats.suggestedFacets)},` +
    `"columns":[${stats.columns.join(",")}]}`;
}
