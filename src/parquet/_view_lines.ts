/**
 * A view's CSV, JSON lines or JSON with every line built by DuckDB (see
 * `_line_sql.ts`), when its columns are of the types written there.
 *
 * A view in the version's own order (no sort), taken whole or, without
 * filters or search, sliced, is read in ranges of rows: a big part in ranges
 * of its rows, small parts together, each range one query whose lines
 * DuckDB writes to a file (see `_line_streams.ts`). Any other view (sorted,
 * a filtered slice, parts of differing columns) is one query.
 *
 * @module
 */
import type { ReadEngine } from "./_duckdb.ts";
import { csvLine } from "./_csv.ts";
import { csvLineSql, jsonLineSql, linesSelect } from "./_line_sql.ts";
import { copyLines, type LineFraming, type LineQuery, started } from "./_line_streams.ts";
import { oneScan, ROW, valueError, type ViewSpec, viewSql } from "./_view_sql.ts";
import type { ViewShape } from "./view.ts";
import { readAll } from "./_statement.ts";

/** Rows of a view's first part whose share passing its filters tells whether the view is sparse. */
const SAMPLE_ROWS = 10_240;
/** A view that passes fewer than this share of its sampled rows is sparse (see {@linkcode sparseView}). */
const SPARSE_SHARE = 1 / 8;
/** Samples' answers kept (the oldest let go first): about 1 ms of DuckDB each, a view downloaded again pays none. */
const KEPT_SAMPLES = 512;
/** The answers of samples taken, by the sample's SQL and parameters. */
const SAMPLES = new Map<string, boolean>();

/** The text formats, and which records of a view (see `view_download.ts`). */
type TextFormat = "csv" | "json" | "jsonl";
interface Slice {
  offset: number;
  limit: number | null;
}

/**
 * Rows one range covers, at most: four of DuckDB's default row groups, so
 * that both its threads have row groups to read (a range of one row group is
 * read by one, and cost a fifth more), while a range's file stays within
 * tens of MB.
 */
export const RANGE_ROWS = 4 * 122_880;
/** The name a record's line goes by (apart from any column's name). */
const LINE = "__svc_line";
/** Parts one range query reads together, at most. */
const RANGE_PARTS = 256;
/**
 * A filtered view's ranges cover this many times the rows: most of their
 * records are filtered out, and each range costs a query (a view of six
 * thousand of a million records took twice DuckDB's one `COPY` in three).
 */
const FILTERED_RANGES = 4;

/** Rows of parts `first` to `last` (not included); `from`/`to` bound the rows of a range of one part. */
export interface RowRange {
  /** The first part. */
  first: number;
  /** After the last part. */
  last: number;
  /** The first row of a one-part range, or null for every row of its parts. */
  from: number | null;
  /** After its last row. */
  to: number | null;
}

/**
 * The ranges that cover `slice` of parts whose row groups start at `groups`
 * (each part's starts, then its rows): parts taken whole are read together
 * up to `rows` rows (and {@linkcode RANGE_PARTS} parts) a range, a last few
 * (a quarter of `rows` or less) with the range before them; a bigger
 * part, or the part a slice starts or ends in, in ranges of its own rows,
 * `rows` at most, ending where a row group ends when one does within them
 * (a range that cut a row group would have it read twice).
 *
 * @example
 * ```ts
 * import { rowRanges } from "./_view_lines.ts";
 * rowRanges([[0, 10], [0, 10], [0, 40, 80, 100]], { offset: 0, limit: null }, 50);
 * // [{ first: 0, last: 2, from: null, to: null }, { first: 2, last: 3, from: 0, to: 40 }, ...]
 * ```
 */
export function rowRanges(groups: readonly (readonly number[])[], slice: Slice, rows: number): RowRange[] {
  const out: RowRange[] = [];
  let skip = slice.offset;
  let left = slice.limit ?? Infinity;
  let batch: { first: number; rows: number } | null = null;
  const flush = (at: number) => {
    if (!batch) return;
    const before = out.at(-1);
    // A remainder of a quarter of `rows` or less joins the batch just before it (a query of its own costs more).
    if (before?.from === null && batch.rows <= rows / 4 && at - before.first <= RANGE_PARTS) before.last = at;
    else out.push({ first: batch.first, last: at, from: null, to: null });
    batch = null;
  };
  let i = 0;
  for (; i < groups.length && left > 0; i++) {
    const n = groups[i][groups[i].length - 1];
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const from = skip;
    const to = Math.min(n, from + left);
    skip = 0;
    left -= to - from;
    if (from === 0 && to === n && n <= rows) {
      if (batch && (batch.rows + n > rows || i - batch.first >= RANGE_PARTS)) flush(i);
      batch ??= { first: i, rows: 0 };
      batch.rows += n;
      continue;
    }
    flush(i);
    out.push(...partRanges(i, groups[i], from, to, rows));
  }
  // Up to the part after the last one read: a slice that ends where a part ends stops there.
  flush(i);
  return out;
}

/**
 * Rows `from` to `to` of part `part` (row groups starting at `groups`) in
 * ranges of `rows` at most, each ending where the last row group that fits
 * in it ends (a range that cut a row group would have it read twice, and
 * one of {@linkcode RANGE_ROWS} keeps both threads on whole row groups to
 * its end); a remainder of a quarter of `rows` or less joins the range
 * before it (a query for a few rows costs more than reading them).
 */
function partRanges(part: number, groups: readonly number[], from: number, to: number, rows: number): RowRange[] {
  const out: RowRange[] = [];
  for (let a = from; a < to;) {
    let b = Math.min(to, a + rows);
    if (b < to) {
      const ends = groups.filter((g) => g > a && g <= b);
      if (ends.length > 0) b = ends[ends.length - 1];
      if (to - b <= rows / 4) b = to;
    }
    out.push({ first: part, last: part + 1, from: a, to: b });
    a = b;
  }
  return out;
}

/** How `format` frames its lines; `names` are the CSV header's. */
function framingOf(format: TextFormat, names: readonly string[]): LineFraming {
  if (format === "csv") return { head: csvLine(names), join: "\r\n", terminated: true, first: "", tail: "" };
  if (format === "jsonl") return { head: "", join: "\n", terminated: true, first: "", tail: "" };
  return { head: "[", join: ",\n", terminated: false, first: "\n", tail: "\n]\n" };
}

/** What a view's lines need: the engine, the parts, their rows and shape. */
export interface LineSource {
  /** The node's read engine. */
  engine: ReadEngine;
  /** The parts, in the version's order. */
  paths: readonly string[];
  /** Where each part's row groups start, then its rows; null when not known (then the view is one query). */
  groups: readonly (readonly number[])[] | null;
  /** Their columns. */
  shape: ViewShape;
}

/**
 * Whether the filtered view `spec` passes few records (under
 * {@linkcode SPARSE_SHARE}), judged by the first {@linkcode SAMPLE_ROWS}
 * rows of its first part; false when its parts' rows are not known. DuckDB
 * hands a sparse view's records to the line's expression a few in each
 * chunk, and where a column's values are a dictionary's it runs each test
 * over the whole dictionary once per dictionary: a CSV field then takes one
 * test of each value instead (`csvLineSql`'s `sparse`). Measured over HTTP,
 * 6,175 of a million records: the CSV download 0.82x of the dictionary
 * tests' time over 200 parts, 0.91x over one; taken for every filtered view,
 * a filter every record passes cost 1.16-1.21x, hence the sample.
 *
 * @example
 * ```ts ignore
 * await sparseView({ engine, paths, groups, shape }, spec); // true for country = 'x' of a million
 * ```
 */
export async function sparseView(source: LineSource, spec: ViewSpec): Promise<boolean> {
  const rows = source.groups?.[0]?.at(-1) ?? 0;
  if (rows === 0 || (spec.filters.length === 0 && spec.search === null)) return false;
  const sampled = Math.min(rows, SAMPLE_ROWS);
  const sql = viewSql(source.paths.slice(0, 1), source.shape.columns, spec, source.shape.uniform, [
    `${ROW} < ${sampled}`,
  ]);
  // A part never changes (its name is its digest): the same sample of it gives the same answer.
  const key = `${sql.from}\u0000${JSON.stringify(sql.params)}`;
  const known = SAMPLES.get(key);
  if (known !== undefined) return known;
  const passed = await source.engine.use((c) => readAll(c, `SELECT count(*)::BIGINT ${sql.from}`, sql.params));
  const sparse = Number(passed.getRows()[0][0]) < sampled * SPARSE_SHARE;
  if (SAMPLES.size >= KEPT_SAMPLES) SAMPLES.delete(SAMPLES.keys().next().value!);
  SAMPLES.set(key, sparse);
  return sparse;
}

/**
 * The records `slice` of the view `spec` as `format`, each line built by
 * DuckDB, started (a value not of its column's type rejects here); null when
 * a column's type is not written by DuckDB here. `rows` bounds the rows of
 * one range.
 *
 * @example
 * ```ts ignore
 * const body = await viewLines({ engine, paths, groups, shape }, spec, "csv", { offset: 0, limit: null });
 * ```
 */
export async function viewLines(
  source: LineSource,
  spec: ViewSpec,
  format: TextFormat,
  slice: Slice,
  rows = RANGE_ROWS,
): Promise<ReadableStream<Uint8Array> | null> {
  const { engine, paths, shape } = source;
  const whole = spec.filters.length === 0 && spec.search === null;
  const nonNull = new Set(shape.nonNull);
  const columns = shape.columns.map((c) => ({ ...c, nonNull: nonNull.has(c.name) }));
  const first = format === "csv" ? csvLineSql(columns) : jsonLineSql(columns);
  if (first === null) return null;
  const framing = framingOf(format, shape.columns.map((c) => c.name));
  const groups = source.groups;
  const inRanges = groups !== null && !spec.sort && shape.uniform && oneScan(shape.columns) &&
    (whole || (slice.offset === 0 && slice.limit === null));
  try {
    // A slice is a page's worth or so: its lines cost less than the sample would.
    const sparse = format === "csv" && slice.limit === null && await sparseView(source, spec);
    const line = sparse ? csvLineSql(columns, true)! : first;
    if (!inRanges) {
      const sql = viewSql(paths, shape.columns, spec, shape.uniform);
      const limit = slice.limit === null ? "" : ` LIMIT ${slice.limit}`;
      const offset = slice.offset === 0 ? "" : ` OFFSET ${slice.offset}`;
      const query: LineQuery = {
        select: `${linesSelect(line, LINE, [], sql.from)}${sql.orderBy}${limit}${offset}`,
        params: sql.params,
      };
      let given = false;
      return await started(copyLines(engine, () => given ? null : (given = true, query), framing));
    }
    viewSql(paths, shape.columns, spec, true); // a column that is not there is refused before anything runs
    const ranges = rowRanges(groups!, slice, whole ? rows : rows * FILTERED_RANGES);
    let at = 0;
    return await started(copyLines(engine, () => {
      if (at >= ranges.length) return null;
      const range = ranges[at++];
      const bounds = range.from === null ? [] : [`${ROW} >= ${range.from}`, `${ROW} < ${range.to}`];
      const sql = viewSql(paths.slice(range.first, range.last), shape.columns, spec, true, bounds);
      return { select: linesSelect(line, LINE, [], sql.from) + sql.orderBy, params: sql.params };
    }, framing));
  } catch (e) {
    throw valueError(e);
  }
}
