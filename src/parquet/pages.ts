/**
 * Pages of records by row range. A page reads only the parts it overlaps, and
 * within a part it selects rows by `file_row_number`, whose row-group
 * statistics let DuckDB skip every row group outside the range, so a page
 * deep in a version costs about what the first page costs.
 *
 * @module
 */
import type { StoredVersion } from "../store/mod.ts";
import type { ReadEngine } from "./_duckdb.ts";
import { admitted, decoded, slice } from "./_block_decodes.ts";
import { groupStarts, partRecords } from "./_part_bounds.ts";
import { cachedRecordsAt, recordsAt } from "./_records_at.ts";
import type { PagePart, PartLeases, ReaderState } from "./_reader_state.ts";
import { type ByteSource, type CachedGroup, joinBytes } from "./cached_group.ts";
import type { PageCache, PageCacheStats } from "./page_cache.ts";
import type { CachedRecords } from "./view.ts";

/** Reads pages of records from the parts of whole versions. */
export interface PageReader {
  /**
   * Records `offset` to `offset + limit` of `version`, each as JSON text, in
   * part order then row order.
   */
  page(version: StoredVersion, offset: number, limit: number): Promise<string[]>;
  /**
   * The same records joined by commas (what a page's `records` array holds),
   * as UTF-8, and how many; between the `head` and `tail` that `around` gives
   * for that many records, when given, all in one array.
   */
  pageBytes(
    version: StoredVersion,
    offset: number,
    limit: number,
    around?: (count: number) => { head: string; tail: string },
  ): Promise<{ bytes: Uint8Array<ArrayBuffer>; count: number }>;
  /**
   * The records at `positions` of `version` (each a record's place in it,
   * part after part, row after row), each as JSON text, in the order given:
   * cut from the cache, the blocks it lacks decoded into it (a sorted page's
   * records lie all over the version), or read from the parts without one.
   */
  recordsAt(version: StoredVersion, positions: ArrayLike<number>): Promise<string[]>;
  /**
   * The records at `positions` of `version`, as {@linkcode PageReader.recordsAt}
   * gives them, when every block holding one is in the cache; else null
   * (the caller has a cheaper way for a few records than waiting for a
   * decode), the blocks missed decoded into the cache behind it when they
   * are few and admitted, as a page's are.
   */
  cachedRecordsAt(version: StoredVersion, positions: ArrayLike<number>): Promise<string[] | null>;
  /** Records in each part of `version`, read from the Parquet metadata. */
  partRecords(version: StoredVersion): Promise<number[]>;
  /** Where each row group of each part of `version` starts, then the part's rows (row-group bounds, from the metadata). */
  partGroups(version: StoredVersion): Promise<number[][]>;
  /** What the page cache holds and how it served, or null without one. */
  cacheStats(): PageCacheStats | null;
  /**
   * Compresses, then drops, the least recently used blocks of the cache until
   * at most `bytes` are held; what it gives up goes back to the system at
   * once when no read of this reader is under way (else at a collection).
   */
  trimCache(bytes: number): void;
  /** Waits for the blocks being decoded into the cache (before the engine closes). */
  settle(): Promise<void>;
}

/**
 * The records of `version` that `reader`'s cache holds, by part and row, for
 * a view's page (see {@linkcode CachedRecords}).
 *
 * @example
 * ```ts ignore
 * const page = await viewPage(engine, paths, shape, spec, 0, 10, undefined, cachedRecords(reader, version));
 * ```
 */
export function cachedRecords(reader: PageReader, version: StoredVersion): CachedRecords {
  return async (places) => {
    if (places.length === 0) return [];
    const starts = [0];
    for (const n of await reader.partRecords(version)) starts.push(starts[starts.length - 1] + n);
    return await reader.cachedRecordsAt(version, places.map((p) => starts[p.part] + p.row));
  };
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
  /**
   * The parts are fetched before they are read (a store in an object
   * store): each read leases only the parts it reads, and the records of
   * each part come from the version's manifest where it lists them, so a
   * page costs the parts it overlaps, not the whole version.
   */
  remote?: PartLeases;
}

export { partSliceSql } from "./_block_decodes.ts";

/** Records of one part's range, as the page needs them. */
interface Piece {
  count: number;
  /** Whether it came from the cache. */
  cached: boolean;
  /** The records as UTF-8, in runs to be joined by commas (written from the cache into the page, when cached). */
  chunks: () => (Uint8Array | ByteSource)[];
  records: () => string[];
}

const encoder = new TextEncoder();

function pieceOf(records: string[]): Piece {
  return {
    count: records.length,
    cached: false,
    chunks: () => records.length === 0 ? [] : [encoder.encode(records.join(","))],
    records: () => records,
  };
}

/** Records `a` to `b` (block-relative) of cached blocks, in order. */
function cachedPiece(slices: { group: CachedGroup; a: number; b: number }[]): Piece {
  return {
    count: slices.reduce((n, s) => n + s.b - s.a, 0),
    cached: true,
    chunks: () =>
      slices.filter(({ a, b }) => b > a).map(({ group, a, b }) => ({
        length: group.byteLength(a, b),
        writeInto: (out: Uint8Array, at: number) => group.writeInto(a, b, out, at),
      })),
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
    remote: options.remote ?? null,
  };
  /** Reads under way that may hold cached blocks: a trim frees no block's memory while one is. */
  let reads = 0;
  const holding = <T>(read: () => Promise<T>): Promise<T> => {
    reads++;
    return read().finally(() => reads--);
  };
  return {
    partRecords: (version) => partRecords(state, version),
    recordsAt: (version, positions) => holding(() => recordsAt(state, version, positions)),
    cachedRecordsAt: (version, positions) => holding(() => cachedRecordsAt(state, version, positions)),
    async partGroups(version) {
      await partRecords(state, version);
      return version.parts.map((p) => state.groups.get(p.sha256) ?? [0]);
    },
    page: (version, offset, limit) =>
      holding(async () => (await pieces(state, version, offset, limit)).flatMap((p) => p.records())),
    pageBytes: (version, offset, limit, around) =>
      holding(async () => {
        const got = (await pieces(state, version, offset, limit)).filter((p) => p.count > 0);
        const count = got.reduce((n, p) => n + p.count, 0);
        const frame = around?.(count);
        const chunks = got.flatMap((p) => p.chunks());
        const framed = frame && { head: encoder.encode(frame.head), tail: encoder.encode(frame.tail) };
        return { bytes: joinBytes(chunks, framed), count };
      }),
    cacheStats: () => state.cache?.stats() ?? null,
    trimCache: (bytes) => state.cache?.trim(bytes, { release: reads === 0 }),
    settle: async () => void await Promise.allSettled(state.decoding.values()),
  };
}

/**
 * Rows `from` to `from + want` of one part: cut from cached blocks, or from
 * blocks decoded for the cache meanwhile (when every block missed is
 * admitted), else read from the part.
 */
async function piece(state: ReaderState, part: PagePart, from: number, want: number): Promise<Piece> {
  const cache = state.cache;
  const sha256 = part.sha256;
  if (!cache) return pieceOf(await slice(state, part, from, want));
  const starts = await groupStarts(state, part);
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
  const decode = (g: number) => decoded(state, part, starts[g]);
  // A page whose blocks are all being decoded already waits for them (pages missing the same blocks share their
  // decode); the page that starts a decode reads its own rows meanwhile, as a cold page would without the cache (a
  // decode is a row group's blocks: waiting for it made a cold page 3.7-7.5x slower).
  const under = missing.every((b) => state.decoding.has(`${sha256}:${starts[b.g]}`));
  const admittedNow = missing.filter((b) => admitted(state, `${sha256}:${starts[b.g]}`));
  if (under) {
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
  return pieceOf(await slice(state, part, from, want));
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
      const got = await piece(state, version.parts[i], from, want);
      out.push(got);
      taken += got.count;
    }
    start = end;
  }
  state.cache?.count(out.every((p) => p.cached));
  return out;
}
