/**
 * Every record of a version as gzip-compressed JSON lines, streamed: one
 * DuckDB chunk (2,048 rows) at a time, pulled only as fast as the client
 * reads, so memory stays bounded whatever the version's size.
 *
 * @module
 */
import type { DuckDBConnection, DuckDBResult } from "@duckdb/node-api";
import type { StoredVersion } from "../store/store.ts";
import { type ReadEngine, sqlString } from "./_duckdb.ts";
import { type RecordEncoder, recordEncoder } from "./rows.ts";

/**
 * The records of `version` as a stream of JSON lines (uncompressed bytes).
 *
 * @example
 * ```ts ignore
 * const body = jsonLines(engine, version).pipeThrough(new CompressionStream("gzip"));
 * ```
 */
export function jsonLines(engine: ReadEngine, version: StoredVersion): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let connection: DuckDBConnection | null = null;
  let result: DuckDBResult | null = null;
  let encode: RecordEncoder | null = null;
  let part = 0;

  function close() {
    connection?.closeSync();
    connection = null;
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        connection ??= await engine.connect();
        while (true) {
          if (!result) {
            if (part >= version.parts.length) {
              close();
              controller.close();
              return;
            }
            result = await connection.stream(`SELECT * FROM read_parquet(${sqlString(version.parts[part++].path)})`);
            encode = recordEncoder(result);
          }
          const chunk = await result.fetchChunk();
          if (!chunk || chunk.rowCount === 0) {
            result = null;
            continue;
          }
          const lines = encode!(chunk);
          controller.enqueue(encoder.encode(lines.join("\n") + "\n"));
          return;
        }
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
 * The records of `version` as gzip-compressed JSON lines.
 *
 * @example
 * ```ts ignore
 * return new Response(gzipJsonLines(engine, version), { headers: { "content-type": "application/gzip" } });
 * ```
 */
export function gzipJsonLines(engine: ReadEngine, version: StoredVersion): ReadableStream<Uint8Array> {
  return jsonLines(engine, version).pipeThrough<Uint8Array>(
    new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
}
