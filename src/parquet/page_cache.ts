/**
 * Decoded blocks of records kept in memory for data pages (a block is a row
 * group, or a 10,240-row slice of a larger one): a version never changes, so
 * the JSON text of a block's records, once made, serves every later page
 * that falls in it. Each block is kept as the UTF-8 bytes of its records
 * joined by commas (as a page writes them) and the offset of each record in
 * them, so a page is a slice of bytes already encoded, a block costs about
 * its JSON's size, and none of it sits in the JavaScript heap (a heap of
 * cached strings grew to twice their size between collections). Least
 * recently used blocks go first once the cache passes its size.
 *
 * @module
 */

/** One block's records: their JSON texts joined by commas, as UTF-8, and where each starts. */
export interface CachedGroup {
  /** The records' JSON texts joined by `,`, as UTF-8. */
  bytes: Uint8Array;
  /** Where record `i` starts in `bytes`; one more entry than records (`bytes.length + 1` at the end). */
  starts: Uint32Array;
}

/** What the cache holds and how it has served, for `/healthz` and benchmarks. */
export interface PageCacheStats {
  /** Bytes the cache may hold. */
  maxBytes: number;
  /** Bytes held now (estimated: the texts' characters and the offsets). */
  bytes: number;
  /** Row groups held. */
  groups: number;
  /** Pages served from memory. */
  hits: number;
  /** Pages read from the parts. */
  misses: number;
}

/** The decoded row groups of one node. */
export interface PageCache {
  /** The group of part `sha256` starting at row `start`, or undefined (and then it counts as most recently used). */
  get(sha256: string, start: number): CachedGroup | undefined;
  /** Keeps a group, dropping the least recently used ones past the size. */
  set(sha256: string, start: number, group: CachedGroup): void;
  /** Counts a page served from memory or from the parts. */
  count(hit: boolean): void;
  /** What the cache holds. */
  stats(): PageCacheStats;
  /** Drops the least recently used groups until at most `bytes` are held. */
  trim(bytes: number): void;
}

const encoder = new TextEncoder();

/**
 * Joins the records of a block into a {@linkcode CachedGroup}.
 *
 * @example
 * ```ts
 * import { cachedGroup } from "./page_cache.ts";
 * const group = cachedGroup(['{"id":1}', '{"id":2}']);
 * new TextDecoder().decode(group.bytes.subarray(group.starts[1], group.starts[2] - 1)); // '{"id":2}'
 * ```
 */
export function cachedGroup(records: readonly string[]): CachedGroup {
  const starts = new Uint32Array(records.length + 1);
  // Every UTF-16 code unit is at most 3 bytes of UTF-8.
  const room = new Uint8Array(records.reduce((n, r) => n + r.length * 3 + 1, 0));
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    starts[i] = at;
    at += encoder.encodeInto(records[i], room.subarray(at)).written;
    room[at++] = 44; // ","
  }
  starts[records.length] = at;
  return { bytes: room.slice(0, Math.max(0, at - 1)), starts };
}

/** Bytes a block holds: its UTF-8 and its offsets. */
function sizeOf(group: CachedGroup): number {
  return group.bytes.byteLength + group.starts.byteLength + 64;
}

/**
 * A cache of at most `maxBytes` (0 keeps nothing).
 *
 * @example
 * ```ts
 * import { cachedGroup, pageCache } from "./page_cache.ts";
 * const cache = pageCache(1024 * 1024);
 * cache.set("ab".repeat(32), 0, cachedGroup(['{"id":1}']));
 * cache.get("ab".repeat(32), 0)?.bytes.length; // 8
 * ```
 */
export function pageCache(maxBytes: number): PageCache {
  const groups = new Map<string, { group: CachedGroup; bytes: number }>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  const dropTo = (most: number) => {
    for (const [oldest, held] of groups) {
      if (bytes <= most) break;
      groups.delete(oldest);
      bytes -= held.bytes;
    }
  };
  return {
    get(sha256, start) {
      const key = `${sha256}:${start}`;
      const held = groups.get(key);
      if (!held) return undefined;
      groups.delete(key);
      groups.set(key, held);
      return held.group;
    },
    set(sha256, start, group) {
      const key = `${sha256}:${start}`;
      const size = sizeOf(group);
      if (size > maxBytes) return;
      const old = groups.get(key);
      if (old) {
        bytes -= old.bytes;
        groups.delete(key);
      }
      groups.set(key, { group, bytes: size });
      bytes += size;
      dropTo(maxBytes);
    },
    count(hit) {
      if (hit) hits++;
      else misses++;
    },
    stats: () => ({ maxBytes, bytes, groups: groups.size, hits, misses }),
    trim: (most) => dropTo(Math.max(0, most)),
  };
}
