/**
 * What a page reader keeps (see `pages.ts`), shared by its private files.
 *
 * @module
 */
import type { StoredVersion } from "../store/mod.ts";
import type { ReadEngine } from "./_duckdb.ts";
import type { LineSql } from "./_line_sql.ts";
import type { CachedGroup } from "./cached_group.ts";
import type { PageCache } from "./page_cache.ts";

/**
 * Rows of a block, the unit the cache decodes and keeps: a row group, or a
 * slice of one this long. A decode of a 122,880-row group at once left
 * hundreds of MB of DuckDB results waiting for the garbage collector (they
 * outlive the young generation); blocks of 10,240 rows die young.
 */
export const BLOCK_ROWS = 10_240;

/** Misses of one block after which it is decoded into the cache: a block read once is not worth keeping. */
export const ADMIT_AFTER = 2;
/** Blocks whose misses (or whose size past the cache's) are remembered, at most (the count starts over past it). */
export const MAX_TOUCHED = 10_000;

/** What a page reader keeps: part row counts and block bounds by digest, and the cache's admissions. */
export interface ReaderState {
  engine: ReadEngine;
  cache: PageCache | null;
  /** Rows of each part, by digest (parts are immutable). */
  counts: Map<string, number>;
  /** Where each block of a part starts, and its rows last, by digest. */
  bounds: Map<string, number[]>;
  /** Where each row group of a part starts, and its rows last, by digest. */
  groups: Map<string, number[]>;
  /** Misses of blocks not yet cached, by `<sha256>:<start>`. */
  touched: Map<string, number>;
  /** Blocks being decoded into the cache, by `<sha256>:<start>`: pages missing one share its decode. */
  decoding: Map<string, Promise<CachedGroup>>;
  /** Turns at decoding a block, if the decodes at once are bounded. */
  decodeTurns: { take(): Promise<() => void> } | null;
  /** Blocks larger than the whole cache: never kept, so never decoded whole again. */
  oversized: Set<string>;
  /** Per part, by digest, the SQL of its records' JSON texts, or null when it is written here (see `blockGroup`). */
  lines: Map<string, LineSql | null>;
  /** Parts whose own schema has a `file_row_number` column: they page by LIMIT/OFFSET. */
  ownRowNumber: Set<string>;
  /** How parts are fetched before they are read, when they are (see `PageReaderOptions.remote`). */
  remote: PartLeases | null;
}

/** A part as a page reader reads it. */
export type PagePart = StoredVersion["parts"][number];

/** Parts fetched before they are read (a store in an object store): each read leases the parts it reads. */
export interface PartLeases {
  /** Fetches `parts` (if they are not held already) and holds them until the release is called. */
  lease(parts: readonly PagePart[]): Promise<() => void>;
}

/** Runs `fn` with `parts` leased when the reader's parts are fetched before they are read. */
export async function reading<T>(state: ReaderState, parts: readonly PagePart[], fn: () => Promise<T>): Promise<T> {
  const release = await state.remote?.lease(parts);
  try {
    return await fn();
  } finally {
    release?.();
  }
}

/**
 * Index of the last of `sorted` (ascending) at or below `value`, -1 if none:
 * `findLastIndex` by halves (the npm package's target, ES2022, lacks it).
 */
export function lastAtOrBelow(sorted: readonly number[], value: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}
