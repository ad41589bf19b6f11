/**
 * Decoded blocks of records kept in memory for data pages (a block is a row
 * group, or a 10,240-row slice of a larger one): a version never changes, so
 * the JSON text of a block's records, once made, serves every later page
 * that falls in it. Each block is kept as the UTF-8 bytes of its records
 * joined by commas (as a page writes them) and the offset of each record in
 * them, so a page is a slice of bytes already encoded, a block costs about
 * its JSON's size (an eighth to a quarter of it compressed), and none of it
 * sits in the JavaScript heap (a heap of cached strings grew to twice their
 * size between collections). Once the cache passes its size, a compressing
 * cache first compresses its least recently used plain blocks, then any
 * cache drops its least recently used blocks.
 *
 * @module
 */
import type { CachedGroup } from "./cached_group.ts";

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
  /** Whether blocks are kept compressed. */
  compressed: boolean;
}

/** The decoded row groups of one node. */
export interface PageCache {
  /**
   * The group of part `sha256` starting at row `start`, or undefined (and
   * then it counts as most recently used); a compressed one comes back plain
   * when the cache has room for it so.
   */
  get(sha256: string, start: number): CachedGroup | undefined;
  /** Whether the group of part `sha256` starting at row `start` is held (it does not count as used). */
  has(sha256: string, start: number): boolean;
  /**
   * Keeps a group, past the size first compressing the least recently used
   * plain ones (a compressing cache), then dropping the least recently used;
   * false when it is too large to keep at all.
   */
  set(sha256: string, start: number, group: CachedGroup): boolean;
  /** Counts a page served from memory or from the parts. */
  count(hit: boolean): void;
  /** What the cache holds. */
  stats(): PageCacheStats;
  /**
   * Compresses the least recently used groups, then drops the least recently
   * used, until at most `bytes` are held: what is kept through an idle spell
   * holds more records, and is made plain again when read (see `get`). With
   * `release`, the memory of every group it gives up (dropped, or replaced by
   * its compressed form) goes back to the system at once
   * ({@linkcode CachedGroup.release}): only when no read holds a group.
   */
  trim(bytes: number, options?: { release?: boolean }): void;
  /** Whether groups are compressed to make room before any is dropped (see {@linkcode cachedGroup}). */
  readonly compressed: boolean;
}

/** Options of {@linkcode pageCache}. */
export interface PageCacheOptions {
  /**
   * Make room by compressing the least recently used blocks before dropping
   * any: four to eight times the records in the same bytes, about 0.03 ms
   * more a page served from a compressed block. Blocks go in plain, and stay
   * so while they fit.
   */
  compressed?: boolean;
}

/**
 * A cache of at most `maxBytes` (0 keeps nothing).
 *
 * @example
 * ```ts
 * import { pageCache } from "./page_cache.ts";
 * import { cachedGroup } from "./cached_group.ts";
 * const cache = pageCache(1024 * 1024, { compressed: true });
 * cache.set("ab".repeat(32), 0, cachedGroup(['{"id":1}'], { compressed: cache.compressed }));
 * cache.get("ab".repeat(32), 0)?.bytes(0, 1).length; // 8
 * ```
 */
export function pageCache(maxBytes: number, options: PageCacheOptions = {}): PageCache {
  const compressed = options.compressed ?? false;
  const groups = new Map<string, { group: CachedGroup; bytes: number; incompressible?: boolean }>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  /**
   * Compresses the least recently used plain groups, in their places, until
   * at most `most` bytes are held; a group compression does not shrink stays
   * plain, and is not tried again.
   */
  const compactTo = (most: number, givenUp?: (group: CachedGroup) => void) => {
    for (const [key, held] of groups) {
      if (bytes <= most) break;
      if (held.group.compressed || held.incompressible) continue;
      const group = held.group.compress();
      if (group.size >= held.bytes) {
        held.incompressible = true;
        continue;
      }
      groups.set(key, { group, bytes: group.size });
      bytes += group.size - held.bytes;
      givenUp?.(held.group);
    }
  };
  const dropTo = (most: number, givenUp?: (group: CachedGroup) => void) => {
    for (const [oldest, held] of groups) {
      if (bytes <= most) break;
      groups.delete(oldest);
      bytes -= held.bytes;
      givenUp?.(held.group);
    }
  };
  return {
    get(sha256, start) {
      const key = `${sha256}:${start}`;
      let held = groups.get(key);
      if (!held) return undefined;
      groups.delete(key);
      // A compressed block read while the cache has room for it plain goes back to plain (decompressing a block costs
      // a few ms; decoding it again from the parts, tens).
      if (held.group.compressed && bytes - held.bytes + held.group.plainSize <= maxBytes) {
        const plain = held.group.decompress();
        bytes += plain.size - held.bytes;
        held = { group: plain, bytes: plain.size };
      }
      groups.set(key, held);
      return held.group;
    },
    has: (sha256, start) => groups.has(`${sha256}:${start}`),
    set(sha256, start, group) {
      const key = `${sha256}:${start}`;
      const kept = compressed && group.size > maxBytes ? group.compress() : group;
      if (kept.size > maxBytes) return false;
      const old = groups.get(key);
      if (old) {
        bytes -= old.bytes;
        groups.delete(key);
      }
      groups.set(key, { group: kept, bytes: kept.size });
      bytes += kept.size;
      if (compressed) compactTo(maxBytes);
      dropTo(maxBytes);
      return true;
    },
    count(hit) {
      if (hit) hits++;
      else misses++;
    },
    stats: () => ({ maxBytes, bytes, groups: groups.size, hits, misses, compressed }),
    trim(most, options) {
      const givenUp = options?.release ? (group: CachedGroup) => group.release() : undefined;
      compactTo(Math.max(0, most), givenUp);
      dropTo(Math.max(0, most), givenUp);
    },
    compressed,
  };
}
