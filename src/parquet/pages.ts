/**
 * Pages of records by row range. A page reads only the parts it overlaps, and
 * within a part it selects rows by `file_row_number`, whose row-group
 * statistics let DuckDB skip every row group outside the range, so a page
 * deep in a version costs about what the first page costs.
 *
 * @module
 */
import type { StoredVersion } from "../store/mod.ts";
import { type ReadEngine, sqlString } from "./_duckdb.ts";
import { admitted, decoded, slice } from "./_block_decodes.ts";
import { BLOCK_ROWS, type ReaderState } from "./_reader_state.ts";
import { type CachedGroup, joinBytes } from "./cached_group.ts";
import type { PageCache, PageCacheStats } from "./page_cache.ts";

/** Reads pages of records from the parts of whole versions. */
export interface PageReader {
  /**
   * Records `offset` to `offset + limit` of `version`, each as JSON text, in
   * part order then row order.
   */
  page(version: StoredVersion, offset: number, limit: number): Promise<string[]>;
  /** The same records joined by commas (what a page's `records` array holds), as UTF-8, and how many. */
  pageBytes(version: StoredVersion, offset: number, limit: number): Promise<{ bytes: Uint8Array; count: number }>;
  /** Records in each part of `version`, read from the Parquet metadata. */
  partRecords(version: StoredVersion): Promise<number[]>;
  /** Where each row group of each part of `version` starts, then the part's rows (row-group bounds, from the metadata). */
  partGroups(version: StoredVersion): Promise<number[][]>;
  /** What the page cache holds and how it served, or null without one. */
  cacheStats(): PageCacheStats | null;
  /** Compresses, then drops, the least recently used blocks of the cache until at most `bytes` are held. */
  trimCache(bytes: number): void;
  /** Waits for the blocks being decoded into the cache (before the engine closes). */
  settle(): Promise<void>;
}

/** Options of {@linkcode pageReader}. */
export interface PageReaderOptions {
  /** Decoded blocks kept in memory (none: every page is read from the parts). */
  cache?: PageCache | null;
  /**
   * Turns at decoding a block into the cache, to bound the decodes at once
   * (each holds its block's records three times over: DuckDB's vectors, their
   * JSON texts, the bytes being compressed). None: as many as the engine's
   * connections.
   */
  decodeTurns?: { take(): Promise<() => void> };
}

export { partSliceSql } from "./_block_decodes.ts";

/** Records of one part's range, as the page needs them. */
interface Piece {
  count: number;
  /** Whether it came from the cache. */
  cached: boolean;
  /** The records joined by commas, as UTF-8 (a view into the cache, not a copy, when one block holds them). */
  bytes: () => Uint8Array;
  records: () => string[];
}

const encoder = new TextEncoder();

function pieceOf(records: string[]): Piece {
  return {
    count: records.length,
    cached: false,
    bytes: () => encoder.encode(records.join(",")),
    records: () => records,
  };
}

/** Records `a` to `b` (block-relative) of cached blocks, in order. */
function cachedPiece(slices: { group: CachedGroup; a: number; b: number }[]): Piece {
  return {
    count: slices.reduce((n, s) => n + s.b - s.a, 0),
    cached: true,
    bytes: () => joinBytes(slices.map(({ group, a, b }) => group.bytes(a, b))),
    records: () => slices.flatMap(({ group, a, b }) => group.records(a, b)),
  };
}

/**
 * A page reader over `engine`. Row-group bounds (and so row counts) are read
 * from the parts' Parquet footers once, every part of a version in one
 * query, and kept by digest (parts are immutable).
 * With a cache, a page whose blocks (row groups, or 10,240-row slices of
 * larger ones) are all held is cut from memory; otherwise it is read from the
 * parts as without one. A block missed while the cache has room, or missed a
 * second time, is decoded whole instead, kept, and the page cut from it;
 * pages that miss it meanwhile wait for that decode rather than read the
 * parts themselves.
 */
export function pageReader(engine: ReadEngine, options: PageReaderOptions = {}): PageReader {
  const state: ReaderState = {
    engine,
    cache: options.cache && options.cache.stats().maxBytes > 0 ? options.cache : null,
    counts: new Map(),
    bounds: new Map(),
    groups: new Map(),
    touched: new Map(),
    decoding: new Map(),
    oversized: new Set(),
    decodeTurns: options.decodeTurns ?? null,
    ownRowNumber: new Set(),
    lines: new Map(),
  };
  return {
    partRecords: (version) => partRecords(state, version),
    async partGroups(version) {
      await partRecords(state, version);
      return version.parts.map((p) => state.groups.get(p.sha256) ?? [0]);
    },
    async page(version, offset, limit) {
      return (await pieces(state, version, offset, limit)).flatMap((p) => p.records());
    },
    async pageBytes(version, offset, limit) {
      const got = (await pieces(state, version, offset, limit)).filter((p) => p.count > 0);
      return { bytes: joinBytes(got.map((p) => p.bytes())), count: got.reduce((n, p) => n + p.count, 0) };
    },
    cacheStats: () => state.cache?.stats() ?? null,
    trimCache: (bytes) => state.cache?.trim(bytes),
    settle: async () => void await Promise.allSettled(state.decoding.values()),
  };
}

/** Reads the row-group bounds (and so the row counts) of `parts` from their footers, all in one query. */
async function learnBounds(state: ReaderState, parts: readonly { path: string; sha256: string }[]): Promise<void> {
  const list = parts.map((p) => sqlString(p.path)).join(", ");
  const rows = await state.engine.use(async (c) =>
    (await c.runAndReadAll(
      `SELECT DISTINCT file_name, row_group_id, row_group_num_rows FROM parquet_metadata([${list}]) ` +
        "ORDER BY file_name, row_group_id",
    )).getRows()
  );
  const byPath = new Map<string, { blocks: number[]; groups: number[] }>();
  for (const [file, , n] of rows) {
    const known = byPath.get(String(file)) ?? { blocks: [0], groups: [0] };
    const starts = known.blocks;
    const from = starts[starts.length - 1];
    const end = from + Number(n);
    // Large row groups are decoded (and kept) in blocks: one decode's transient memory stays small.
    for (let at = from + BLOCK_ROWS; at < end; at += BLOCK_ROWS) starts.push(at);
    if (end > from) {
      starts.push(end);
      known.groups.push(end);
    }
    byPath.set(String(file), known);
  }
  for (const p of parts) {
    const { blocks, groups } = byPath.get(p.path) ?? { blocks: [0], groups: [0] };
    state.bounds.set(p.sha256, blocks);
    state.groups.set(p.sha256, groups);
    state.counts.set(p.sha256, blocks[blocks.length - 1]);
  }
}

async function partRecords(state: ReaderState, version: StoredVersion): Promise<number[]> {
  const missing = version.parts.filter((p) => !state.counts.has(p.sha256));
  if (missing.length > 0) await learnBounds(state, missing);
  return version.parts.map((p) => state.counts.get(p.sha256) ?? 0);
}

/** Where each block of a part starts, and the part's rows last. */
async function groupStarts(state: ReaderState, path: string, sha256: string): Promise<number[]> {
  if (!state.bounds.has(sha256)) await learnBounds(state, [{ path, sha256 }]);
  return state.bounds.get(sha256)!;
}

/**
 * Whether the cache has room for the blocks being decoded and one more, as
 * large as those it holds: while it does, a block goes in on its first miss,
 * since keeping it drops nothing.
 */
async function piece(state: ReaderState, path: string, sha256: string, from: number, want: number): Promise<Piece> {
  const cache = state.cache;
  if (!cache) return pieceOf(await slice(state, path, sha256, from, want));
  const starts = await groupStarts(state, path, sha256);
  const blocks: { g: number; group: CachedGroup | undefined }[] = [];
  for (let g = 0; g < starts.length - 1; g++) {
    if (starts[g + 1] > from && starts[g] < from + want) blocks.push({ g, group: cache.get(sha256, starts[g]) });
  }
  const missing = blocks.filter((b) => !b.group);
  const cut = () =>
    blocks.map(({ g, group }) => ({
      group: group!,
      a: Math.max(from, starts[g]) - starts[g],
      b: Math.min(from + want, starts[g + 1]) - starts[g],
    }));
  if (missing.length === 0) return cachedPiece(cut());
  const decode = (g: number) => decoded(state, path, sha256, starts[g]);
  const admittedNow = missing.filter((b) => admitted(state, `${sha256}:${starts[b.g]}`));
  if (admittedNow.length === missing.length) {
    try {
      const groups = await Promise.all(missing.map((b) => decode(b.g)));
      missing.forEach((b, i) => (b.group = groups[i]));
      return { ...cachedPiece(cut()), cached: false };
    } catch {
      // A part pruned meanwhile, or the engine closing: the parts say which.
    }
  } else {
    for (const b of admittedNow) decode(b.g).catch(() => {});
  }
  return pieceOf(await slice(state, path, sha256, from, want));
}

async function pieces(state: ReaderState, version: StoredVersion, offset: number, limit: number): Promise<Piece[]> {
  const sizes = await partRecords(state, version);
  const out: Piece[] = [];
  let taken = 0;
  let start = 0;
  for (let i = 0; i < sizes.length && taken < limit; i++) {
    const end = start + sizes[i];
    if (offset < end) {
      const from = Math.max(0, offset - start);
      const want = Math.min(limit - taken, sizes[i] - from);
      const part = version.parts[i];
      const got = await piece(state, part.path, part.sha256, from, want);
      out.push(got);
      taken += got.count;
    }
    start = end;
  }
  state.cache?.count(out.every((p) => p.cached));
  return out;
}
