/**
 * The DuckDB that writes a Parquet download, kept warm for the next one. A
 * fresh DuckDB cost a small download most of its time: 7-12 ms to open and
 * the parts' footers read again (a view of 6,175 records: 35 ms against 16
 * for DuckDB's own `COPY` on a warm instance). One writer per store is kept
 * between downloads, its Parquet metadata cache on; a download that finds it
 * busy opens one of its own, as every download did before, and closes it
 * after. A writer may read its store and write only its own folder under the
 * system's temporary directory (`svc-parquet-writer-*`), in which each
 * download has a folder of its own (`svc-download-*`), removed as before;
 * the writer's folder goes with the writer, at the idle trim or when the node
 * stops ({@linkcode closeIdleParquetWriters}).
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { join, sep } from "node:path";
import { tempRoot } from "../runtime/mod.ts";
import { duckdbSize, RETURNING_ALLOCATOR, sqlString } from "./_duckdb.ts";

/** A locked-down DuckDB that reads what it was made for and writes only under `folder`. */
export interface ParquetWriter {
  /** What it was made for: the folders it reads and its memory. */
  key: string;
  /** The instance. */
  db: DuckDBInstance;
  /** Its folder: where downloads' folders are made and it spills. */
  folder: string;
}

/** How the folders of kept writers are named (under the system's temporary directory). */
export const WRITER_FOLDER_PREFIX = "svc-parquet-writer-";

/** The idle writer kept per key (a store's folders and a memory): one each. */
const idle = new Map<string, ParquetWriter>();

async function opened(key: string, reads: readonly string[], memory: number): Promise<ParquetWriter> {
  const folder = await mkdtemp(join(tempRoot(), WRITER_FOLDER_PREFIX));
  const real = await Promise.all(reads.map((r) => realpath(r).catch(() => r)));
  const allowed = [...new Set([...reads, ...real, folder])].map((d) => sqlString(d + sep));
  let db: DuckDBInstance | null = null;
  try {
    db = await DuckDBInstance.create(":memory:", {
      threads: "2",
      memory_limit: duckdbSize(memory),
      ...RETURNING_ALLOCATOR,
      autoload_known_extensions: "false",
      autoinstall_known_extensions: "false",
    });
    const setup = await db.connect();
    try {
      await setup.run(`SET temp_directory = ${sqlString(join(folder, "spill"))}`);
      await setup.run(`SET max_temp_directory_size = '1GB'`);
      await setup.run(`SET parquet_metadata_cache = true`);
      await setup.run(`SET allowed_directories = [${allowed.join(", ")}]`);
      await setup.run(`SET enable_external_access = false`);
      await setup.run(`SET lock_configuration = true`);
    } finally {
      setup.closeSync();
    }
    return { key, db, folder };
  } catch (e) {
    db?.closeSync();
    await rm(folder, { recursive: true, force: true }).catch(() => {});
    throw e;
  }
}

/**
 * A writer that may read under `reads` with `memory` bytes: the kept one
 * when it is idle, else a new one. Give it back with
 * {@linkcode releaseParquetWriter}.
 *
 * @example
 * ```ts ignore
 * import { releaseParquetWriter, takeParquetWriter } from "./_parquet_writers.ts";
 * const writer = await takeParquetWriter(["/srv/svc-data"], 64 * 1024 ** 2);
 * await releaseParquetWriter(writer, true);
 * ```
 */
export function takeParquetWriter(reads: readonly string[], memory: number): Promise<ParquetWriter> {
  const key = JSON.stringify([reads, memory]);
  const kept = idle.get(key);
  if (kept) {
    idle.delete(key);
    return Promise.resolve(kept);
  }
  return opened(key, reads, memory);
}

/**
 * Gives `writer` back after a download: kept for the next when it is
 * `healthy` and none is kept for its store yet, else closed and its folder
 * removed.
 */
export async function releaseParquetWriter(writer: ParquetWriter, healthy: boolean): Promise<void> {
  if (healthy && !idle.has(writer.key)) {
    idle.set(writer.key, writer);
    return;
  }
  await closeWriter(writer);
}

async function closeWriter(writer: ParquetWriter): Promise<void> {
  writer.db.closeSync();
  await rm(writer.folder, { recursive: true, force: true }).catch(() => {});
}

/**
 * Closes every kept writer (a download running now keeps its own until it
 * ends): at the idle trim, and when a node stops.
 *
 * @example
 * ```ts
 * import { closeIdleParquetWriters } from "./_parquet_writers.ts";
 * await closeIdleParquetWriters();
 * ```
 */
export async function closeIdleParquetWriters(): Promise<void> {
  const writers = [...idle.values()];
  idle.clear();
  await Promise.all(writers.map(closeWriter));
}

/** How many writers are kept idle now (for tests). */
export function idleParquetWriters(): number {
  return idle.size;
}
