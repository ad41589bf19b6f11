/**
 * The DuckDBs that write Parquet downloads, one kept warm for the next. A
 * fresh DuckDB cost a small download most of its time: 7-12 ms to open and
 * the parts' footers read again (a view of 6,175 records: 35 ms against 16
 * for DuckDB's own `COPY` on a warm instance). A node keeps one writer per
 * store between downloads, its Parquet metadata cache on; a download that
 * finds it busy opens one of its own, as every download did before, and
 * closes it after. A writer may read its store and write only its own folder
 * under the system's temporary directory (`svc-parquet-writer-*`), in which
 * each download has a folder of its own (`svc-download-*`); the writer's
 * folder goes with the writer, at the idle trim or when the node stops.
 *
 * @module
 */
import type { DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { tempRoot } from "../runtime/mod.ts";
import { lockedDuckDB } from "./_duckdb.ts";

/** A locked-down DuckDB that reads what it was made for and writes only under `folder`. */
export interface ParquetWriter {
  /** What it was made for: the folders it reads and its memory. */
  key: string;
  /** The instance. */
  db: DuckDBInstance;
  /** Its folder: where downloads' folders are made and it spills. */
  folder: string;
}

/** Where Parquet downloads get their writers. */
export interface ParquetWriters {
  /** A writer that may read under `reads` with `memory` bytes: the kept one when it is idle, else a new one. */
  take(reads: readonly string[], memory: number): Promise<ParquetWriter>;
  /** Gives `writer` back: kept for the next when `healthy` and none is kept for its store yet, else closed. */
  release(writer: ParquetWriter, healthy: boolean): Promise<void>;
  /** Closes the kept writers, their folders removed (a download running now keeps its own until it ends). */
  closeIdle(): Promise<void>;
  /** How many writers are kept now. */
  kept(): number;
}

/** How the folders of writers are named (under the system's temporary directory). */
export const WRITER_FOLDER_PREFIX = "svc-parquet-writer-";

async function opened(key: string, reads: readonly string[], memory: number): Promise<ParquetWriter> {
  // Named for this process: a later start removes it if this node is killed while it lives (`OWNED_TEMP_FOLDER`).
  const folder = await mkdtemp(join(tempRoot(), `${WRITER_FOLDER_PREFIX}${process.pid}-`));
  try {
    const locked = { folders: [...reads, folder], temp: join(folder, "spill"), memoryLimit: memory, caches: true };
    const { db, setup } = await lockedDuckDB(locked);
    setup.closeSync();
    return { key, db, folder };
  } catch (e) {
    await rm(folder, { recursive: true, force: true }).catch(() => {});
    throw e;
  }
}

async function closed(writer: ParquetWriter): Promise<void> {
  writer.db.closeSync();
  await rm(writer.folder, { recursive: true, force: true }).catch(() => {});
}

/**
 * Writers for Parquet downloads, keeping one idle per store (`keep`: false
 * keeps none, every download opening and closing its own).
 *
 * @example
 * ```ts
 * import { parquetWriters } from "./_parquet_writers.ts";
 * const writers = parquetWriters();
 * const writer = await writers.take([], 64 * 1024 ** 2);
 * await writers.release(writer, true);
 * writers.kept(); // 1
 * await writers.closeIdle();
 * ```
 */
export function parquetWriters(keep = true): ParquetWriters {
  const idle = new Map<string, ParquetWriter>();
  return {
    take(reads, memory) {
      const key = JSON.stringify([reads, memory]);
      const kept = idle.get(key);
      if (!kept) return opened(key, reads, memory);
      idle.delete(key);
      return Promise.resolve(kept);
    },
    async release(writer, healthy) {
      if (keep && healthy && !idle.has(writer.key)) {
        idle.set(writer.key, writer);
        return;
      }
      await closed(writer);
    },
    async closeIdle() {
      const writers = [...idle.values()];
      idle.clear();
      await Promise.all(writers.map(closed));
    },
    kept: () => idle.size,
  };
}
