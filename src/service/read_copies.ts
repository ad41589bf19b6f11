/**
 * Read copies: a version of many small parts counted (facets, a filtered
 * view's total) from one file holding its records, made once in the
 * background in the read engine's scratch folder (never in the store, so a
 * read-only node makes them too). A version never changes, so neither does
 * its copy; it is named by the parts it copies. Over 200 parts of 5,000
 * records, counting took 9 ms from the copy against 29 ms from the parts
 * (DuckDB's cost a file, see `src/parquet/read_copy.ts`).
 *
 * Only what pays is copied: a version of at least {@linkcode MIN_PARTS}
 * parts of {@linkcode MAX_AVERAGE_PART_BYTES} or less on average (past
 * that, reading the records outweighs opening the files), at most
 * {@linkcode MAX_COPY_BYTES} in all, every part of the same columns, and
 * counted a second time. The copies together keep to
 * {@linkcode MAX_KEPT_BYTES}, the least recently used going first; they go
 * with the engine's folder when the node stops.
 *
 * @module
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type ReadEngine, type ViewShape, writeReadCopy } from "../parquet/mod.ts";
import { partsDigest, touch } from "./_parts_lru.ts";
import type { Store, StoredVersion } from "../store/mod.ts";

/** Fewest parts a version has for a copy. */
export const MIN_PARTS = 16;
/** Largest average part (bytes) of a version with a copy. */
export const MAX_AVERAGE_PART_BYTES = 2 * 1024 ** 2;
/** Largest version (its parts' bytes) with a copy. */
export const MAX_COPY_BYTES = 256 * 1024 ** 2;
/** Most bytes of copies kept at once. */
export const MAX_KEPT_BYTES = 512 * 1024 ** 2;
/** Counts of a version before it is copied. */
const COUNTS_BEFORE_COPY = 2;
/** Versions whose counts (or refusals) are remembered. */
const REMEMBERED = 1024;

/** Where to count a version's records from. */
export interface CountSource {
  /** The files: the version's copy, or its parts. */
  paths: readonly string[];
  /** Whether `paths` is the copy (when reading it fails, {@linkcode ReadCopies.drop} it and count from the parts). */
  copy: boolean;
}

/** A node's read copies (see the module's documentation). */
export interface ReadCopies {
  /**
   * Where to count `version` (of shape `shape`) from: its copy when made,
   * else its parts; notes the count, and starts a copy in the background
   * when the version is worth one and was counted before.
   */
  countFrom(version: StoredVersion, shape: ViewShape): CountSource;
  /** Forgets `version`'s copy and removes its file (it could not be read), not to be made again. */
  drop(version: StoredVersion): Promise<void>;
  /** Resolves once no copy is being made. */
  settled(): Promise<void>;
  /** Copies kept, and their bytes. */
  kept(): { copies: number; bytes: number };
}

/**
 * Whether `version` (of shape `shape`) is worth a copy: many small parts of
 * one shape, not too much in all.
 *
 * @example
 * ```ts ignore
 * import { worthCopying } from "./read_copies.ts";
 * worthCopying(version, shape); // true for 200 parts of 100 KB each
 * ```
 */
export function worthCopying(version: StoredVersion, shape: ViewShape): boolean {
  const bytes = version.parts.reduce((n, p) => n + p.bytes, 0);
  return shape.uniform && version.parts.length >= MIN_PARTS && bytes <= MAX_COPY_BYTES &&
    bytes <= MAX_AVERAGE_PART_BYTES * version.parts.length;
}

/**
 * The read copies of a node reading with `engine` from `store` (whose
 * parts are leased while they are copied); `limits` for tests.
 *
 * @example
 * ```ts ignore
 * import { readCopies } from "./read_copies.ts";
 * const copies = readCopies(engine, store);
 * const { paths, copy } = copies.countFrom(version, shape);
 * ```
 */
export function readCopies(
  engine: ReadEngine,
  store: Pick<Store, "lease">,
  limits: { maxKeptBytes?: number } = {},
): ReadCopies {
  const maxKept = limits.maxKeptBytes ?? MAX_KEPT_BYTES;
  /** Copies made: their file and size, least recently used first. */
  const made = new Map<string, { path: string; bytes: number }>();
  /** Counts of versions not copied yet; -1 for one never to be copied. */
  const counts = new Map<string, number>();
  let keptBytes = 0;
  let making: Promise<void> = Promise.resolve();

  const forget = async (key: string) => {
    const copy = made.get(key);
    if (!copy) return;
    made.delete(key);
    keptBytes -= copy.bytes;
    // The engine's folder goes when the node stops: a file it could not remove now is not the request's failure.
    await rm(copy.path, { force: true }).catch(() => {});
  };

  const make = async (key: string, version: StoredVersion, shape: ViewShape) => {
    const path = join(engine.scratch, `copy-${key}.parquet`);
    let release = () => {};
    try {
      release = await store.lease(version.parts);
      const bytes = await writeReadCopy(engine, version.parts.map((p) => p.path), shape.columns, path);
      if (bytes > maxKept) {
        await rm(path, { force: true });
        throw new Error("larger than every copy may be together");
      }
      made.set(key, { path, bytes });
      keptBytes += bytes;
      for (const [oldest] of made) {
        if (keptBytes <= maxKept) break;
        await forget(oldest);
      }
    } catch {
      // Counted from its parts, as before: a copy only saves time.
      touch(counts, key, -1, REMEMBERED);
    } finally {
      release();
    }
  };

  return {
    countFrom(version, shape) {
      const key = partsDigest(version);
      const copy = made.get(key);
      if (copy) {
        touch(made, key, copy, Infinity);
        return { paths: [copy.path], copy: true };
      }
      const parts = { paths: version.parts.map((p) => p.path), copy: false };
      const before = counts.get(key) ?? 0;
      if (before < 0 || !worthCopying(version, shape)) return parts;
      if (before + 1 < COUNTS_BEFORE_COPY) {
        touch(counts, key, before + 1, REMEMBERED);
        return parts;
      }
      // Asked once: -1 until made, so that it is not asked again meanwhile.
      touch(counts, key, -1, REMEMBERED);
      making = making.then(() => make(key, version, shape)).then(() => {
        if (made.has(key)) counts.delete(key);
      }).catch(() => {});
      return parts;
    },
    async drop(version) {
      const key = partsDigest(version);
      // A copy gone already was let go for room, while being read: it may be made again.
      if (!made.has(key)) return;
      touch(counts, key, -1, REMEMBERED);
      await forget(key);
    },
    settled: () => making,
    kept: () => ({ copies: made.size, bytes: keptBytes }),
  };
}
