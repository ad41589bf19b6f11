/**
 * Every record of a version as JSON lines, streamed one DuckDB chunk (2,048
 * rows) at a time as fast as the client reads, so memory stays bounded
 * whatever the version's size.
 *
 * For records of plain columns (strings, integers, floats, booleans,
 * decimals, and the `_extra` JSON object) DuckDB builds each line itself,
 * over each part's own columns (as pages read them), and joins a block of
 * lines into one string (see docs/benchmarks.md); any other column type
 * takes the JavaScript encoder that data pages use. Both write the same
 * records: null columns left out, NaN and infinities as null, `_extra`
 * folded into the record.
 *
 * @module
 */
import type { DuckDBConnection, DuckDBResult } from "@duckdb/node-api";
import { createGzip } from "node:zlib";
import { EXPORT_GZIP_LEVEL, type StoredVersion } from "../store/mod.ts";
import { type ReadEngine, type Session, sqlString } from "./_duckdb.ts";
import { jsonLineSql, type LineSql, linesSelect } from "./_line_sql.ts";
import { copyLines, type LineFraming } from "./_line_streams.ts";
import { viewLines } from "./_view_lines.ts";
import { viewShape } from "./view.ts";
import { type RecordEncoder, recordEncoder } from "./rows.ts";
import { streamOf } from "./_statement.ts";

/**
 * The query that makes one JSON line per record of `parts` (as `line`), or
 * null when a column type needs the JavaScript encoder.
 */
async function lineQuery(connection: DuckDBConnection, parts: string): Promise<string | null> {
  const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${parts}`)).getRows()
    .map(([name, type]) => ({ name: String(name), type: String(type) }));
  const line = jsonLineSql(columns);
  return line === null ? null : linesSelect(line, "line", [], `FROM ${parts}`);
}

/** Rows of one block of an export's range: a range is up to eight blocks of a part's rows, written by one query. */
const EXPORT_BLOCK_ROWS = 65_536;
/** Blocks one query writes, at most (a smaller memory budget asks for fewer: see {@linkcode ExportOptions}). */
const EXPORT_RANGE_BLOCKS = 8;
/** Parquet bytes one query may cover beyond its first block: wide records get fewer blocks a query. */
const EXPORT_RANGE_BYTES = 32 * 1024 * 1024;

/** How an export is made. */
export interface ExportOptions {
  /**
   * Blocks of 65,536 lines one query writes, at most (1 to 8, default 8):
   * the lines of a query and of the next one, written while the first are
   * sent, are in files of the read engine's scratch folder, not in memory.
   */
  blocks?: number;
  /**
   * Where each part's row groups start, then its rows (the page reader
   * knows): with them a version whose parts have the same columns is
   * written as a view's JSON lines are, in ranges of rows across parts (see
   * `_view_lines.ts`), instead of a query a part (200 parts took 4-9 s).
   */
  groups?: readonly (readonly number[])[];
}

/**
 * How many blocks of `part` one query writes: `most` (default eight), or
 * fewer when its records are wide (judged by the part's bytes a record), at
 * least one.
 *
 * @example
 * ```ts
 * import { rangeBlocks } from "./export.ts";
 * rangeBlocks({ bytes: 4_500_000, records: 250_000 }); // 8
 * rangeBlocks({ bytes: 4_500_000, records: 250_000 }, 2); // 2
 * rangeBlocks({ bytes: 400_000_000, records: 250_000 }); // 1
 * ```
 */
export function rangeBlocks(part: { bytes: number; records: number | null }, most = EXPORT_RANGE_BLOCKS): number {
  if (!part.records) return 1;
  const rows = Math.floor(EXPORT_RANGE_BYTES / Math.max(1, part.bytes / part.records));
  return Math.max(1, Math.min(most, EXPORT_RANGE_BLOCKS, Math.floor(rows / EXPORT_BLOCK_ROWS)));
}

/**
 * Per part of `version`, the SQL of one JSON line per record over that
 * part's own columns, or null when a part has a column type that needs the
 * JavaScript encoder or its own `file_row_number` column.
 */
async function partLines(connection: DuckDBConnection, version: StoredVersion): Promise<LineSql[] | null> {
  const out: LineSql[] = [];
  for (const part of version.parts) {
    const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(part.path)})`))
      .getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
    const line = jsonLineSql(columns);
    if (line === null || columns.some((c) => c.name === "file_row_number")) return null;
    out.push(line);
  }
  return out;
}

/** JSON lines: each record's line ends with a newline. */
const JSON_LINES: LineFraming = { head: "", join: "\n", terminated: true, first: "", tail: "" };

/**
 * The records of `version` as JSON lines built by DuckDB and written by its
 * CSV writer to files, a range of a part's rows at a time (see
 * `_line_streams.ts`): handing a million one-line strings from DuckDB to
 * JavaScript cost more than building them (0.75 s of 1.18 s here), and
 * joining them into blocks in DuckDB cost as much again as writing them.
 */
function rangeLines(
  engine: ReadEngine,
  version: StoredVersion,
  lines: LineSql[],
  most: number | undefined,
): ReadableStream<Uint8Array> {
  let part = 0;
  let from = 0;
  let asked = 0;
  return copyLines(engine, (written) => {
    // A range that wrote fewer lines than it asked for was the end of its part.
    if (written !== null && written < asked) [part, from] = [part + 1, 0];
    if (part >= version.parts.length) return null;
    asked = EXPORT_BLOCK_ROWS * rangeBlocks(version.parts[part], most);
    const source = `FROM read_parquet(${sqlString(version.parts[part].path)}, file_row_number = true) ` +
      `WHERE file_row_number >= ${from} AND file_row_number < ${from + asked}`;
    from += asked;
    return { select: linesSelect(lines[part], "line", [], source), params: [] };
  }, JSON_LINES);
}

/**
 * The records of `version` as JSON lines written as a view of every record's
 * are, in ranges of rows across its parts, when its parts have the same
 * columns, of types DuckDB writes; else null.
 */
async function viewRanges(
  engine: ReadEngine,
  version: StoredVersion,
  groups: readonly (readonly number[])[],
): Promise<ReadableStream<Uint8Array> | null> {
  const paths = version.parts.map((p) => p.path);
  const shape = await viewShape(engine, paths, { nullCounts: true });
  if (!shape.uniform) return null;
  return await viewLines({ engine, paths, shape, groups }, { filters: [], search: null, sort: null }, "jsonl", {
    offset: 0,
    limit: null,
  });
}

/**
 * The records of `version` as a stream of JSON lines (uncompressed bytes).
 */
export function jsonLines(
  engine: ReadEngine,
  version: StoredVersion,
  options: ExportOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let session: Session | null = null;
  let cancelled = false;
  let result: DuckDBResult | null = null;
  let encode: RecordEncoder | null = null;

  async function open(c: DuckDBConnection): Promise<void> {
    const parts = `read_parquet([${version.parts.map((p) => sqlString(p.path)).join(", ")}], union_by_name = true)`;
    const lines = await lineQuery(c, parts);
    result = await streamOf(c, lines ?? `SELECT * FROM ${parts}`);
    if (!lines) encode = recordEncoder(result);
  }

  let blocks: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (version.parts.length === 0) {
          controller.close();
          return;
        }
        if (!session && !blocks) {
          blocks = options.groups ? (await viewRanges(engine, version, options.groups))?.getReader() ?? null : null;
          if (!blocks) {
            const s = session = await engine.session();
            if (cancelled) return void await s.close();
            const lines = await s.run((c) => partLines(c, version));
            if (lines) {
              await s.close();
              blocks = rangeLines(engine, version, lines, options.blocks).getReader();
            } else {
              await s.run(open);
            }
          }
          if (cancelled) return void await blocks?.cancel();
        }
        if (blocks) {
          const { done, value } = await blocks.read();
          if (done) controller.close();
          else controller.enqueue(value);
          return;
        }
        const chunk = await session!.run(() => result!.fetchChunk());
        if (!chunk || chunk.rowCount === 0) {
          await session!.close();
          controller.close();
          return;
        }
        const lines = encode ? encode(chunk) : chunk.getColumns()[0] as string[];
        controller.enqueue(encoder.encode(lines.join("\n") + "\n"));
      } catch (e) {
        await session?.close();
        controller.error(e);
      }
    },
    async cancel() {
      cancelled = true;
      await session?.close();
      await blocks?.cancel();
    },
  }, { highWaterMark: 0 });
}

/**
 * A gzip compressor as a Web transform, on the runtime's native zlib.
 */
export function gzip(level: number): TransformStream<Uint8Array, Uint8Array> {
  const zip = createGzip({ level });
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      zip.on("data", (d: Uint8Array) => {
        try {
          controller.enqueue(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        } catch {
          zip.destroy(); // the reader went away
        }
      });
    },
    transform(chunk) {
      return new Promise<void>((resolve, reject) => zip.write(chunk, (e) => (e ? reject(e) : resolve())));
    },
    flush() {
      return new Promise<void>((resolve, reject) => {
        zip.once("end", resolve);
        zip.once("error", reject);
        zip.end();
      });
    },
  });
}

/**
 * The records of `version` as gzip-compressed JSON lines.
 */
export function gzipJsonLines(
  engine: ReadEngine,
  version: StoredVersion,
  options: ExportOptions = {},
): ReadableStream<Uint8Array> {
  return jsonLines(engine, version, options).pipeThrough(gzip(EXPORT_GZIP_LEVEL));
}
