/**
 * Downloads of what a person sees: a view of a version (every record that
 * passes its filters and search, in its order, or a slice of them) or a SQL
 * answer, as CSV, JSON, JSON lines or Parquet.
 *
 * A view's text formats stream from the read engine one DuckDB chunk at a
 * time on a connection of their own, as exports do, as fast as the client
 * reads; cancelling the stream stops the query and closes the connection.
 * JSON lines are the data page's records (null columns left out, `_extra`
 * folded in, 64-bit integers exact), JSON the same records as one array, CSV
 * the parts' columns (see `_csv.ts`; `_extra` as its JSON text). Parquet is
 * the parts' columns and types, written by DuckDB to a temporary file first
 * (see `_parquet_file.ts`), then streamed.
 *
 * A SQL answer is converted from its JSON (see `_result_rows.ts`): records
 * keyed by column, cells as the answer writes them.
 *
 * @module
 */
import type { DuckDBDataChunk, DuckDBResult } from "@duckdb/node-api";
import { type ReadEngine, type Session, sqlIdent, sqlString } from "./_duckdb.ts";
import { cellOfJson, cellOfValue, csvLine } from "./_csv.ts";
import { type ParquetFile, parquetFile, type ParquetFileOptions, partParquet } from "./_parquet_file.ts";
import { parquetRows, resultCells, uniqueNames } from "./_result_rows.ts";
import { PART, ROW, valueError, type ViewSpec, viewSql } from "./_view_sql.ts";
import { viewLines } from "./_view_lines.ts";
import type { ViewShape } from "./view.ts";
import { columnWriter } from "./json_text.ts";
import { EXTRA_COLUMN, recordEncoder } from "./rows.ts";
import { runOne, streamOf } from "./_statement.ts";

export { DOWNLOAD_FOLDER_PREFIX, type ParquetFile, type ParquetFileOptions } from "./_parquet_file.ts";
export { type ParquetWriters, parquetWriters, WRITER_FOLDER_PREFIX } from "./_parquet_writers.ts";

/** The formats of a download. */
export type DownloadFormat = "csv" | "json" | "jsonl" | "parquet";
/** The formats written as text. */
export type TextFormat = Exclude<DownloadFormat, "parquet">;

/** Which records of a view: from `offset`, `limit` of them (every one when null). */
export interface Slice {
  /** Records skipped first. */
  offset: number;
  /** Most records, or null for the rest of the view. */
  limit: number | null;
}

/** A SQL answer's columns, their DuckDB types, and its rows as the JSON text of an array of arrays. */
export interface ResultRows {
  /** Column names. */
  columns: string[];
  /** DuckDB type names. */
  types: string[];
  /** The rows, JSON. */
  rows: string;
}

const encoder = new TextEncoder();
/** Rows of a SQL answer encoded at a time. */
const RESULT_BATCH = 1000;

/**
 * The SELECT of the view `spec`'s records in `slice`, and its parameters:
 * ordered only when sorted, as pages are (a scan keeps the parts' order).
 */
function viewSelect(paths: readonly string[], shape: ViewShape, spec: ViewSpec, slice: Slice) {
  for (const n of [slice.offset, slice.limit ?? 0]) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a row count: ${n}`);
  }
  const sql = viewSql(paths, shape.columns, spec, shape.uniform);
  const limit = slice.limit === null ? "" : ` LIMIT ${slice.limit}`;
  const offset = slice.offset === 0 ? "" : ` OFFSET ${slice.offset}`;
  return { text: `SELECT * EXCLUDE (${PART}, ${ROW}) ${sql.from}${sql.orderBy}${limit}${offset}`, params: sql.params };
}

/** The text of a format before, between and after records, and how a chunk's records are written. */
interface Framing {
  head: string;
  tail: string;
  chunk: (chunk: DuckDBDataChunk) => string;
}

function framing(result: DuckDBResult | null, format: TextFormat): Framing {
  if (result === null) {
    return {
      head: format === "json" ? "[" : "",
      tail: format === "json" ? "\n]\n" : "",
      chunk: () => "",
    };
  }
  if (format === "csv") {
    const names = result.columnNames();
    const writers = result.columnTypes().map((t, i) => names[i] === EXTRA_COLUMN ? null : columnWriter(t, "number"));
    return {
      head: csvLine(names),
      tail: "",
      chunk(chunk) {
        const columns = chunk.getColumns();
        let text = "";
        for (let r = 0; r < chunk.rowCount; r++) text += csvLine(columns.map((c, i) => cellOfValue(c[r], writers[i])));
        return text;
      },
    };
  }
  const encode = recordEncoder(result);
  if (format === "jsonl") return { head: "", tail: "", chunk: (chunk) => encode(chunk).map((r) => r + "\n").join("") };
  let first = true;
  return {
    head: "[",
    tail: "\n]\n",
    chunk(chunk) {
      const records = encode(chunk);
      if (records.length === 0) return "";
      const text = (first ? "\n" : ",\n") + records.join(",\n");
      first = false;
      return text;
    },
  };
}

/** How {@linkcode viewText} reads the parts. */
export interface ViewTextOptions {
  /** Where each part's row groups start, then its rows (the page reader knows): with them a view in the version's order is read in ranges. */
  groups?: readonly (readonly number[])[];
  /** Rows one range covers at most (default four of DuckDB's row groups). */
  rangeRows?: number;
  /** Who writes the lines: DuckDB where it can (the default), or JavaScript always (what DuckDB's are tested against). */
  writer?: "duckdb" | "javascript";
}

/**
 * The records `slice` of the view `spec` of the parts at `paths` (of the
 * shape `shape`, see `viewShape`) as `format`, streamed: lines built by
 * DuckDB when the columns are of the types it writes as the data page does
 * (see `_view_lines.ts`), else written here from DuckDB's values. The query is started, and
 * its first chunk read, before this resolves: a value that is not of its
 * column's type rejects here as a `ViewError`, as a missing column does.
 *
 * @example
 * ```ts
 * import { DuckDBInstance } from "@duckdb/node-api";
 * import { openReadEngine } from "./_duckdb.ts";
 * import { viewShape } from "./view.ts";
 * import { viewText } from "./view_download.ts";
 *
 * const root = await Deno.makeTempDir();
 * const db = await DuckDBInstance.create();
 * const c = await db.connect();
 * await c.run(`COPY (SELECT range AS id, 'a,b' AS s FROM range(3)) TO '${root}/p.parquet' (FORMAT parquet)`);
 * c.closeSync();
 * db.closeSync();
 * const engine = await openReadEngine(root);
 * const paths = [`${root}/p.parquet`];
 * const spec = { filters: [], search: null, sort: { column: "id", descending: true } };
 * const body = await viewText(engine, paths, await viewShape(engine, paths), spec, "csv", { offset: 0, limit: 2 });
 * console.log(await new Response(body).text()); // 'id,s\r\n2,"a,b"\r\n1,"a,b"\r\n'
 * await engine.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function viewText(
  engine: ReadEngine,
  paths: readonly string[],
  shape: ViewShape,
  spec: ViewSpec,
  format: TextFormat,
  slice: Slice,
  options: ViewTextOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  if (paths.length === 0) return textStream(null, framing(null, format), null);
  const select = viewSelect(paths, shape, spec, slice);
  if (options.writer !== "javascript") {
    const groups = options.groups ?? null;
    const lines = await viewLines({ engine, paths, shape, groups }, spec, format, slice, options.rangeRows);
    if (lines !== null) return lines;
  }
  const session = await engine.session();
  try {
    const result = await session.run((c) => streamOf(c, select.text, select.params));
    const first = await session.run(() => result.fetchChunk());
    return textStream(session, framing(result, format), { result, first });
  } catch (e) {
    await session.close();
    throw valueError(e);
  }
}

/** The stream of a started view query: the framing's head, each chunk's records, its tail. */
function textStream(
  session: Session | null,
  frame: Framing,
  query: { result: DuckDBResult; first: DuckDBDataChunk | null } | null,
): ReadableStream<Uint8Array> {
  let started = false;
  let pending = query?.first ?? null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let text = started ? "" : frame.head;
        started = true;
        // A pull that enqueues nothing is not called again: read on until there is text, or the end.
        do {
          const chunk = pending ?? (query && session ? await session.run(() => query.result.fetchChunk()) : null);
          pending = null;
          if (!chunk || chunk.rowCount === 0) {
            await session?.close();
            if (text + frame.tail !== "") controller.enqueue(encoder.encode(text + frame.tail));
            controller.close();
            return;
          }
          text += frame.chunk(chunk);
        } while (text === "");
        controller.enqueue(encoder.encode(text));
      } catch (e) {
        await session?.close();
        controller.error(e);
      }
    },
    async cancel() {
      await session?.close();
    },
  }, { highWaterMark: 0 });
}

/**
 * The records `slice` of the view `spec` as a Parquet file of the parts'
 * columns and types (the part itself for the whole of a one-part version),
 * written by a DuckDB that reads under the folders `reads` (the store), from
 * `options.writers`; `options.signal` interrupts the write, and the writer
 * may hold `options.memory` bytes. A value not of its column's type rejects
 * as a `ViewError`.
 *
 * @example
 * ```ts
 * import { DuckDBInstance } from "@duckdb/node-api";
 * import { openReadEngine } from "./_duckdb.ts";
 * import { viewShape } from "./view.ts";
 * import { viewParquet } from "./view_download.ts";
 *
 * const root = await Deno.makeTempDir();
 * const db = await DuckDBInstance.create();
 * const c = await db.connect();
 * await c.run(`COPY (SELECT range AS id FROM range(1000)) TO '${root}/p.parquet' (FORMAT parquet)`);
 * c.closeSync();
 * db.closeSync();
 * const engine = await openReadEngine(root);
 * const paths = [`${root}/p.parquet`];
 * const spec = { filters: [{ column: "id", op: "lt" as const, values: ["10"] }], search: null, sort: null };
 * const file = await viewParquet([root], paths, await viewShape(engine, paths), spec, { offset: 0, limit: null });
 * console.log(file.size, (await new Response(file.body).arrayBuffer()).byteLength); // the same number twice
 * await engine.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function viewParquet(
  reads: readonly string[],
  paths: readonly string[],
  shape: ViewShape,
  spec: ViewSpec,
  slice: Slice,
  options: ParquetFileOptions = {},
): Promise<ParquetFile> {
  if (paths.length === 0) throw new RangeError("a version of no parts has no columns to write as Parquet");
  const select = viewSelect(paths, shape, spec, slice);
  const whole = !spec.sort && spec.filters.length === 0 && spec.search === null && slice.offset === 0 &&
    slice.limit === null;
  options.signal?.throwIfAborted();
  const part = whole && paths.length === 1 ? await partParquet(paths[0]) : null;
  if (part !== null) return part;
  return await parquetFile(
    reads,
    async (c, target) => {
      await runOne(c, `COPY (${select.text}) TO ${sqlString(target)} (FORMAT parquet)`, select.params)
        .catch((e) => Promise.reject(valueError(e)));
    },
    options,
  );
}

/**
 * A SQL answer as `format`: CSV with a header row, or JSON records keyed by
 * column (names met again, ignoring case, get `_2`, `_3`, ...), every cell
 * as the answer writes it (nulls kept).
 *
 * @example
 * ```ts
 * import { resultText } from "./view_download.ts";
 * const answer = { columns: ["n", "s"], types: ["BIGINT", "VARCHAR"], rows: '[["9007199254740993","a,b"],[1,null]]' };
 * await new Response(resultText(answer, "csv")).text(); // 'n,s\r\n9007199254740993,"a,b"\r\n1,\r\n'
 * await new Response(resultText(answer, "jsonl")).text(); // '{"n":"9007199254740993","s":"a,b"}\n{"n":1,"s":null}\n'
 * ```
 */
export function resultText(result: ResultRows, format: TextFormat): ReadableStream<Uint8Array> {
  const names = uniqueNames(result.columns);
  const rows = resultCells(result.rows);
  const keys = names.map((n) => JSON.stringify(n) + ":");
  const object = (row: string[]) => `{${row.map((cell, i) => keys[i] + cell).join(",")}}`;
  const line: (row: string[], at: number) => string = format === "csv"
    ? (row) => csvLine(row.map(cellOfJson))
    : format === "jsonl"
    ? (row) => object(row) + "\n"
    : (row, at) => (at === 0 ? "\n" : ",\n") + object(row);
  let at = -1;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at === -1) {
        at = 0;
        return controller.enqueue(encoder.encode(format === "csv" ? csvLine(names) : format === "json" ? "[" : ""));
      }
      if (at >= rows.length) {
        if (format === "json") controller.enqueue(encoder.encode("\n]\n"));
        return controller.close();
      }
      const batch = rows.slice(at, at + RESULT_BATCH).map((row, i) => line(row, at + i));
      at += RESULT_BATCH;
      controller.enqueue(encoder.encode(batch.join("")));
    },
  }, { highWaterMark: 0 });
}

/**
 * A SQL answer as a Parquet file: columns keyed as {@linkcode resultText}
 * keys them, of their own types where Parquet keeps the value exactly
 * (numbers, decimals, booleans, text, dates, times, timestamps, UUIDs, blobs,
 * lists of those), any other as its CSV text. Every value is a parameter.
 *
 * @example
 * ```ts
 * import { resultParquet } from "./view_download.ts";
 * const file = await resultParquet({ columns: ["n"], types: ["BIGINT"], rows: '[["9007199254740993"],[1]]' });
 * console.log(file.size); // the file's bytes, then read file.body
 * await file.body.cancel();
 * ```
 */
export async function resultParquet(result: ResultRows, options: ParquetFileOptions = {}): Promise<ParquetFile> {
  const { structure, rows, blobs } = parquetRows(uniqueNames(result.columns), result.types, resultCells(result.rows));
  // Blobs come as hex text; their names (unique, ignoring case) are quoted as any column name is.
  const unhex = blobs.map((n) => `unhex(${sqlIdent(n)}) AS ${sqlIdent(n)}`).join(", ");
  return await parquetFile(
    [],
    async (c, target) => {
      const rowsSql = `SELECT s.* FROM (SELECT unnest(from_json_strict($1, $2)) AS s)`;
      const select = blobs.length === 0 ? rowsSql : `SELECT * REPLACE (${unhex}) FROM (${rowsSql})`;
      await runOne(c, `COPY (${select}) TO ${sqlString(target)} (FORMAT parquet)`, [rows, structure]);
    },
    options,
  );
}
