/**
 * Every record of a version as JSON lines, streamed one DuckDB chunk (2,048
 * rows) at a time as fast as the client reads, so memory stays bounded
 * whatever the version's size.
 *
 * For records of plain columns (strings, integers, floats, booleans,
 * decimals, and the `_extra` JSON object) DuckDB builds each line itself,
 * which is about twice as fast as converting values in JavaScript (see
 * docs/benchmarks.md); any other column type takes the JavaScript encoder
 * that data pages use. Both write the same records: null columns left out,
 * NaN and infinities as null, `_extra` folded into the record.
 *
 * @module
 */
import type { DuckDBConnection, DuckDBResult } from "@duckdb/node-api";
import { createGzip } from "node:zlib";
import type { StoredVersion } from "../store/mod.ts";
import { EXPORT_GZIP_LEVEL } from "../store/export_cache.ts";
import { type ReadEngine, sqlIdent, sqlString } from "./_duckdb.ts";
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

/**
 * The records of `version` as a stream of JSON lines (uncompressed bytes).
 *
 * @example
 * ```ts ignore
 * for await (const bytes of jsonLines(engine, version)) console.log(bytes.byteLength);
 * ```
 */
export function jsonLines(engine: ReadEngine, version: StoredVersion): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let connection: DuckDBConnection | null = null;
  let result: DuckDBResult | null = null;
  let encode: RecordEncoder | null = null;

  function close() {
    connection?.closeSync();
    connection = null;
  }

  async function open(c: DuckDBConnection): Promise<void> {
    const parts = `read_parquet([${version.parts.map((p) => sqlString(p.path)).join(", ")}], union_by_name = true)`;
    const lines = await lineQuery(c, parts);
    result = await c.stream(lines ?? `SELECT * FROM ${parts}`);
    if (!lines) encode = recordEncoder(result);
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (version.parts.length === 0) {
          controller.close();
          return;
        }
        if (!connection) {
          connection = await engine.connect();
          await open(connection);
        }
        const chunk = await result!.fetchChunk();
        if (!chunk || chunk.rowCount === 0) {
          close();
          controller.close();
          return;
        }
        const lines = encode ? encode(chunk) : chunk.getColumns()[0] as string[];
        controller.enqueue(encoder.encode(lines.join("\n") + "\n"));
      } catch (e) {
        close();
        controller.error(e);
      }
    },
    cancel() {
      close();
    },
  }, { highWaterMark: 0 });
}

/**
 * A gzip compressor as a Web transform, on the runtime's native zlib.
 *
 * @example
 * ```ts ignore
 * const gz = jsonLines(engine, version).pipeThrough(gzip(1));
 * ```
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
 *
 * @example
 * ```ts ignore
 * return new Response(gzipJsonLines(engine, version), { headers: { "content-type": "application/gzip" } });
 * ```
 */
export function gzipJsonLines(engine: ReadEngine, version: StoredVersion): ReadableStream<Uint8Array> {
  return jsonLines(engine, version).pipeThrough(gzip(EXPORT_GZIP_LEVEL));
}
