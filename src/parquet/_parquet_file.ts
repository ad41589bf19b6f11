/**
 * Parquet files for downloads. DuckDB writes Parquet only to a file, and the
 * node's read engine may write nowhere (a `--read-only` node's store may not
 * even be writable), so each file is written by a DuckDB of its own (kept
 * warm between downloads: see `_parquet_writers.ts`): locked down as the
 * read engine is, it reads the store and writes only its folder under the
 * system's temporary directory, where each download has a fresh folder
 * (`svc-download-*`) and the writer spills. The finished file is streamed
 * from there and the download's folder removed when the stream ends, fails
 * or is cancelled (on systems that let an open file be removed, as soon as
 * the file is opened), and at once when the write fails or is interrupted.
 *
 * @module
 */
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { openRegularFile } from "../store/mod.ts";
import { type ParquetWriters, parquetWriters } from "./_parquet_writers.ts";

/** A finished Parquet file: its bytes as a stream, and how many there are. */
export interface ParquetFile {
  /** The file's bytes; reading it to the end, or cancelling it, removes the file. */
  body: ReadableStream<Uint8Array>;
  /** Its size in bytes. */
  size: number;
}

/** How the temporary folders of Parquet downloads are named (under the system's temporary directory). */
export const DOWNLOAD_FOLDER_PREFIX = "svc-download-";

/** DuckDB's `memory_limit` of a writer unless told otherwise. */
const DEFAULT_WRITER_MEMORY = 256 * 1024 * 1024;

/** Bytes read from the file at a time. */
const STEP = 256 * 1024;

/** Runs `write` on a connection of `db`, interrupted when `signal` aborts; closes the connection after. */
async function runWrite(
  db: DuckDBInstance,
  write: (c: DuckDBConnection) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const c = await db.connect();
  const stop = () => c.interrupt();
  try {
    signal?.throwIfAborted();
    signal?.addEventListener("abort", stop, { once: true });
    await write(c);
    signal?.throwIfAborted();
  } finally {
    signal?.removeEventListener("abort", stop);
    c.closeSync();
  }
}

/** How a Parquet file is written. */
export interface ParquetFileOptions {
  /** Interrupts the write. */
  signal?: AbortSignal;
  /** Bytes the writer's DuckDB may hold before it spills to its folder (default 256 MiB). */
  memory?: number;
  /** Where the writer comes from (default: one opened for this file and closed after). */
  writers?: ParquetWriters;
}

/** Writers kept by nobody: each file's own. */
const ONE_OFF = parquetWriters(false);

/**
 * Writes a Parquet file with `write(connection, target)` on a DuckDB (from
 * `options.writers`) that may read under the folders `reads` and write only
 * its own temporary folder, where `target` is, in a fresh folder of this
 * file's. The file comes back as a stream that removes it once read, failed
 * or cancelled.
 *
 * @example
 * ```ts
 * import { parquetFile } from "./_parquet_file.ts";
 * const file = await parquetFile([], async (c, target) => {
 *   await c.run(`COPY (SELECT $1::BIGINT AS n) TO '${target}' (FORMAT parquet)`, [42]);
 * });
 * const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
 * console.log(bytes.length === file.size); // true
 * ```
 */
export async function parquetFile(
  reads: readonly string[],
  write: (c: DuckDBConnection, target: string) => Promise<void>,
  options: ParquetFileOptions = {},
): Promise<ParquetFile> {
  const { signal, memory = DEFAULT_WRITER_MEMORY, writers = ONE_OFF } = options;
  const writer = await writers.take(reads, memory);
  let healthy = false;
  let folder: string | null = null;
  let handle: FileHandle | null = null;
  try {
    folder = await mkdtemp(join(writer.folder, DOWNLOAD_FOLDER_PREFIX));
    const target = join(folder, "download.parquet");
    await runWrite(writer.db, (c) => write(c, target), signal);
    healthy = true;
    handle = await open(target, "r");
    const size = (await handle.stat()).size;
    // Where an open file may be removed (not Windows), nothing is left behind even if the process dies mid-stream.
    const gone = await rm(folder, { recursive: true, force: true }).then(() => true, () => false);
    return { body: fileStream(handle, size, gone ? null : folder), size };
  } catch (e) {
    await handle?.close().catch(() => {});
    if (folder !== null) await rm(folder, { recursive: true, force: true }).catch(() => {});
    throw e;
  } finally {
    // A writer whose statement failed or was interrupted is not kept: the next download starts from a fresh one.
    await writers.release(writer, healthy);
  }
}

/**
 * A part of the store as it is, as a Parquet download: a whole version of
 * one part is that part's records and types already, so it is sent without
 * a DuckDB writing it again. Null when the part cannot be opened (pruned).
 *
 * @example
 * ```ts
 * import { partParquet } from "./_parquet_file.ts";
 * console.log(await partParquet("/nowhere/ab.parquet")); // null
 * ```
 */
export async function partParquet(path: string): Promise<ParquetFile | null> {
  const opened = await openRegularFile(path);
  return opened === null ? null : { body: fileStream(opened.handle, opened.size, null), size: opened.size };
}

/** The `size` bytes of `handle` as a stream that closes it, and removes `folder` if given, when done or cancelled. */
function fileStream(handle: FileHandle, size: number, folder: string | null): ReadableStream<Uint8Array> {
  let position = 0;
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await handle.close().catch(() => {});
    if (folder) await rm(folder, { recursive: true, force: true }).catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const want = Math.min(STEP, size - position);
        if (want <= 0) {
          await finish();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(want);
        const { bytesRead } = await handle.read(buffer, 0, want, position);
        if (bytesRead === 0) throw new Error("the Parquet file ended early");
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (e) {
        await finish();
        controller.error(e);
      }
    },
    cancel: finish,
  }, { highWaterMark: 0 });
}
