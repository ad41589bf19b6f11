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
import { type ReadEngine, type Session, sqlIdent, sqlString } from "./_duckdb.ts";
import { EXTRA_COLUMN, type RecordEncoder, recordEncoder } from "./rows.ts";

/** Column types whose JSON DuckDB writes exactly as the record encoder does. */
const SQL_JSON_TYPES =
  /^(VARCHAR|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;

/** The SQL for one record member, NULL when the column is null (so `concat_ws` leaves it out). */
function memberSql(name: string, type: string): string {
  const c = sqlIdent(name);
  if (name === EXTRA_COLUMN && type === "VARCHAR") {
    const inner = `trim(substr(trim(${c}), 2, length(trim(${c})) - 2))`;
    return `CASE WHEN starts_with(trim(${c}), '{') AND ends_with(trim(${c}), '}') AND ${inner} <> '' THEN ${inner} END`;
  }
  const key = sqlString(JSON.stringify(name) + ":");
  let value = `to_json(${c})`;
  if (type === "FLOAT" || type === "DOUBLE") {
    const d = type === "FLOAT" ? `CAST(CAST(${c} AS VARCHAR) AS DOUBLE)` : c;
    value = `CASE WHEN NOT isfinite(${d}) THEN 'null' ` +
      `WHEN ${d} = floor(${d}) AND abs(${d}) < 1e15 THEN CAST(CAST(${d} AS BIGINT) AS VARCHAR) ` +
      `ELSE CAST(to_json(${d}) AS VARCHAR) END`;
  }
  return `CASE WHEN ${c} IS NOT NULL THEN ${key} || ${value} END`;
}

/**
 * The query that makes one JSON line per record of `parts`, or null when a
 * column type needs the JavaScript encoder.
 */
async function lineQuery(connection: DuckDBConnection, parts: string): Promise<string | null> {
  const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${parts}`)).getRows();
  if (!columns.every(([, type]) => SQL_JSON_TYPES.test(String(type)))) return null;
  const members = columns.map(([name, type]) => memberSql(String(name), String(type)));
  return `SELECT '{' || concat_ws(',', ${members.join(", ")}) || '}' AS line FROM ${parts}`;
}

/** Rows of one block of the export: DuckDB joins a block's lines into one string. */
const EXPORT_BLOCK_ROWS = 16_384;
/** Blocks DuckDB builds in one query, at most (a smaller memory budget asks for fewer: see {@linkcode ExportOptions}). */
const EXPORT_RANGE_BLOCKS = 8;
/** Parquet bytes one query may cover beyond its first block: wide records get fewer blocks a query. */
const EXPORT_RANGE_BYTES = 8 * 1024 * 1024;

/** How an export is made. */
export interface ExportOptions {
  /**
   * Blocks of 16,384 lines DuckDB builds in one query, at most (1 to 8,
   * default 8). Each query's blocks and the next query's, built while they
   * are sent, are what an export holds: a one-part export of a million
   * records peaked 300 MiB above idle at 8 and 130 MiB at 1, and took 30%
   * longer at 1 than at 8 (2 was within 5% of 8).
   */
  blocks?: number;
}

/**
 * How many blocks of `part` one query builds: `most` (default eight), or
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
 * Per part of `version`, the expression of one JSON line per record over that
 * part's own columns, or null when a part has a column type that needs the
 * JavaScript encoder or its own `file_row_number` column.
 */
async function partLines(connection: DuckDBConnection, version: StoredVersion): Promise<string[] | null> {
  const out: string[] = [];
  for (const part of version.parts) {
    const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(part.path)})`))
      .getRows();
    if (!columns.every(([name, type]) => SQL_JSON_TYPES.test(String(type)) && name !== "file_row_number")) return null;
    out.push(`'{' || concat_ws(',', ${columns.map(([n, t]) => memberSql(String(n), String(t))).join(", ")}) || '}'`);
  }
  return out;
}

/**
 * The records of `version` as JSON lines built by DuckDB a block of rows at a
 * time, each block's lines joined there into one string: converting a
 * million one-line strings from DuckDB to JavaScript cost more than building
 * them (0.75 s of 1.18 s here), one string per block costs next to nothing.
 * DuckDB is asked for up to `EXPORT_RANGE_BLOCKS` blocks a query (it builds
 * them on both cores; one query a block cost 0.62 s against 0.45 s), and for
 * the next blocks while the last are compressed and sent.
 */
function blockLines(
  engine: ReadEngine,
  version: StoredVersion,
  lines: string[],
  most: number | undefined,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let session: Session | null = null;
  let cancelled = false;
  /** Blocks taken from DuckDB and not yet sent. */
  let pending: string[] = [];
  /** The next blocks, asked for while the ones before are sent. */
  let ahead: Promise<string[]> | null = null;
  let part = 0;
  let from = 0;
  /** The next blocks' lines, in order (none once every part is read). */
  const nextBlocks = (s: Session): Promise<string[]> =>
    s.run(async (c) => {
      while (part < version.parts.length) {
        const path = sqlString(version.parts[part].path);
        const to = from + EXPORT_BLOCK_ROWS * rangeBlocks(version.parts[part], most);
        const reader = await c.runAndReadAll(
          `SELECT string_agg(line, chr(10) ORDER BY r) FROM (SELECT ${lines[part]} AS line, file_row_number AS r ` +
            `FROM read_parquet(${path}, file_row_number = true) WHERE file_row_number >= ${from} ` +
            `AND file_row_number < ${to}) GROUP BY r // ${EXPORT_BLOCK_ROWS} ORDER BY r // ${EXPORT_BLOCK_ROWS}`,
        );
        const blocks = reader.getRows().map(([text]) => String(text));
        if (blocks.length > 0) {
          from = to;
          return blocks;
        }
        [part, from] = [part + 1, 0];
      }
      return [];
    });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const s = session ??= await engine.session();
        if (cancelled) return void await s.close();
        if (pending.length === 0) {
          pending = await (ahead ?? nextBlocks(s));
          if (pending.length === 0) {
            await s.close();
            controller.close();
            return;
          }
          ahead = nextBlocks(s);
          ahead.catch(() => {}); // its failure is the next pull's
        }
        controller.enqueue(encoder.encode(pending.shift() + "\n"));
      } catch (e) {
        await session?.close();
        controller.error(e);
      }
    },
    async cancel() {
      cancelled = true;
      await session?.close();
    },
  }, { highWaterMark: 0 });
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
    result = await c.stream(lines ?? `SELECT * FROM ${parts}`);
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
          const s = session = await engine.session();
          if (cancelled) return void await s.close();
          const lines = await s.run((c) => partLines(c, version));
          if (lines) {
            await s.close();
            blocks = blockLines(engine, version, lines, options.blocks).getReader();
          } else {
            await s.run(open);
          }
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
