/**
 * What a write needs of the node: its store and engine (a contribution
 * writes a Parquet part), its retention and clock, the projects it follows
 * (which cannot be created here), where warnings go, and the identities of
 * the records each project holds, kept between contributions.
 *
 * @module
 */
import type { KnownRecords } from "../gates/mod.ts";
import type { ReadEngine } from "../parquet/mod.ts";
import type { Store } from "../store/mod.ts";

/** What writes keep between requests: each project's known record identities, read once. */
export interface WriteCache {
  /** Known records by project. */
  recordsByProject: Map<string, KnownRecords>;
}

/**
 * A fresh write cache.
 *
 * @example
 * ```ts
 * import { createWriteCache } from "./target.ts";
 * createWriteCache().recordsByProject.size; // 0
 * ```
 */
export function createWriteCache(): WriteCache {
  return { recordsByProject: new Map() };
}

/** The node as writes see it; the node's state is one. */
export interface WriteTarget {
  /** The store. */
  store: Store;
  /**
   * The DuckDB that writes parts (and reads them to learn their records): one
   * of its own, keeping no caches, so that the parts a merge folds, each read
   * once, do not fill the read engine's caches with an entry per part ever
   * written.
   */
  writer: ReadEngine;
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
  /** The clock, in milliseconds since the epoch. */
  now(): number;
  /** The follow loop, whose projects cannot be created here. */
  follow: { status(): Record<string, { from: string }> } | null;
  /** Where warnings go. */
  log: { warn(message: string): void };
  /** What writes keep between requests. */
  writes: WriteCache;
}
