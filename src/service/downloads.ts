/**
 * Downloads of what a person sees: a view of a version, or the answer of a
 * SQL query, as CSV, JSON, JSON lines or Parquet (see
 * `src/parquet/view_download.ts` for how each is written).
 *
 * A view's download is every record of the view in its order, or the slice
 * asked for; the caller holds the version while the body streams (as
 * exports do). A query's download is its answer (at most its `limit` rows,
 * at most the node's `maxRows`), converted. Parquet files are written by
 * DuckDB instances of their own, in the node's `parquetTurns`
 * ({@linkcode PARQUET_AT_ONCE} at a time; a download that waits
 * {@linkcode PARQUET_WAIT_MS} for a turn is refused as busy, 429).
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import {
  type DownloadFormat,
  type ParquetFile,
  resultParquet,
  resultText,
  type Slice,
  spelledAsColumns,
  ViewError,
  viewParquet,
  type ViewSpec,
  viewText,
  withoutIdleFilters,
} from "../parquet/mod.ts";
import type { StoredVersion } from "../store/mod.ts";
import { type QueryRequest, type QueryState, queryVersion } from "./query.ts";
import type { NodeState } from "./state.ts";
import type { Turns } from "./turns.ts";
import { shapeOf } from "./views.ts";

/** Parquet files written at once, at most (each by a DuckDB of its own, with its own memory). */
export const PARQUET_AT_ONCE = 2;
/** How long a Parquet download waits for a turn before it is refused as busy. */
export const PARQUET_WAIT_MS = 10_000;

/** A download's bytes, and their number when known beforehand (a Parquet file's). */
export interface DownloadBody {
  /** The bytes; null for a HEAD request, whose checks were made but nothing written. */
  body: ReadableStream<Uint8Array> | null;
  /** The size in bytes, or null while unknown (text streams as it is made). */
  size: number | null;
}

/** A download of a view. */
export interface ViewDownloadRequest {
  /** The filters, search and sort; null for the whole version in its order. */
  view: ViewSpec | null;
  /** Which records of the view. */
  slice: Slice;
  /** The format. */
  format: DownloadFormat;
  /** Only check that it can be made (HEAD): the columns, the values' types. */
  head?: boolean;
  /** Stops a Parquet file being written (the client went away). */
  signal?: AbortSignal;
}

/** What a view's download needs of the node. */
export type DownloadState = Pick<
  NodeState,
  "engine" | "pages" | "store" | "storeRealPath" | "memory" | "parquetTurns" | "parquetWriters"
>;

const WHOLE: ViewSpec = { filters: [], search: null, sort: null };

/** Runs `write` in a turn of the node's Parquet writers. */
async function parquetTurn(turns: Turns, write: () => Promise<ParquetFile>): Promise<ParquetFile> {
  const done = await turns.take();
  try {
    return await write();
  } finally {
    done();
  }
}

/**
 * The download `request` of `version` (held by the caller until the body
 * is read or cancelled). A view naming a column the version lacks, or a
 * value not of its column's type, is a bad request. *
 * @example
 * ```ts ignore
 * import { holdVersion, viewDownload } from "./mod.ts";
 * const held = await holdVersion(node, "world-cities", null);
 * const spec = { filters: [], search: null, sort: { column: "population", descending: true } };
 * const { body } = await viewDownload(node, held.version, { view: spec, slice: { offset: 0, limit: null }, format: "csv" });
 * // send body, then held.release()
 * ```
 */
export async function viewDownload(
  state: DownloadState,
  version: StoredVersion,
  request: ViewDownloadRequest,
): Promise<DownloadBody> {
  const paths = version.parts.map((p) => p.path);
  const shape = await shapeOf(state, version);
  const spec = withoutIdleFilters(shape, spelledAsColumns(shape.columns, request.view ?? WHOLE));
  try {
    if (request.format === "parquet" && paths.length === 0) {
      throw new NodeError("unprocessable", `version ${version.version} holds no records to write as Parquet`);
    }
    if (request.head || request.format !== "parquet") {
      const slice = request.head ? { offset: 0, limit: 1 } : request.slice;
      const format = request.format === "parquet" ? "csv" : request.format;
      const groups = await state.pages.partGroups(version);
      const body = await viewText(state.engine, paths, shape, spec, format, slice, { groups });
      if (!request.head) return { body, size: null };
      await body.cancel();
      return { body: null, size: null };
    }
    const reads = [state.store.root, state.storeRealPath];
    return await parquetTurn(
      state.parquetTurns,
      () =>
        viewParquet(reads, paths, shape, spec, request.slice, {
          signal: request.signal,
          memory: state.memory.download,
          writers: state.parquetWriters,
        }),
    );
  } catch (e) {
    if (e instanceof ViewError) throw new NodeError("bad-request", e.message);
    throw e;
  }
}

/** A query's download: its bytes, and what its answer said. */
export interface QueryDownload extends DownloadBody {
  /** The version the query ran over. */
  version: number;
  /** Rows in the download. */
  count: number;
  /** Whether the statement had more rows than the download holds. */
  truncated: boolean;
}

/**
 * Runs `request` over `slug` as `queryVersion` does and answers its rows as
 * `format`; `signal` stops a Parquet file being written. *
 * @example
 * ```ts ignore
 * import { queryDownload } from "./mod.ts";
 * const sql = "SELECT country, count(*) AS n FROM records GROUP BY 1";
 * const answer = await queryDownload(node, "world-cities", { sql, version: null, limit: 1000 }, "csv");
 * console.log(answer.truncated, await new Response(answer.body).text());
 * ```
 */
export async function queryDownload(
  state: QueryState & Pick<NodeState, "memory" | "parquetTurns" | "parquetWriters">,
  slug: string,
  request: QueryRequest,
  format: DownloadFormat,
  signal?: AbortSignal,
): Promise<QueryDownload> {
  const text = await queryVersion(state, slug, request);
  const answer = JSON.parse(text) as {
    version: number;
    columns: string[];
    types: string[];
    count: number;
    truncated: boolean;
  };
  // The answer's rows as written, every digit kept: `,"rows":` cannot occur inside a string of the head (a quote
  // there is escaped), and the fields after the rows hold no strings.
  const rows = text.slice(text.indexOf(',"rows":') + 8, text.lastIndexOf(',"count":'));
  const result = { columns: answer.columns, types: answer.types, rows };
  const head = { version: answer.version, count: answer.count, truncated: answer.truncated };
  if (format !== "parquet") return { ...head, body: resultText(result, format), size: null };
  return {
    ...head,
    ...await parquetTurn(
      state.parquetTurns,
      () => resultParquet(result, { signal, memory: state.memory.download, writers: state.parquetWriters }),
    ),
  };
}
