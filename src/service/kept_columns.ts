/**
 * Kept columns: the columns a node's views filter and facet on, kept in
 * memory as codes (`src/parquet/kept_column.ts`) once a version's column
 * was counted twice, so that a view counted each time (a filter of its own
 * every request) is counted over typed arrays instead of by a scan of the
 * parts (2-3 ms against 16 ms in-process for 1,000,000 records, see
 * docs/benchmarks.md "facets"). A version never changes, so neither does a
 * kept column; it is named by the version's parts and the column.
 *
 * Columns are read in the background, one at a time, the parts leased
 * meanwhile. Together they keep to a share of the memory budget (an eighth
 * of the page cache's), the least recently used going first; a column that
 * cannot be kept (its type, too many values, larger than the share) is
 * remembered as such and counted by DuckDB as before.
 *
 * @module
 */
import {
  findViewColumn,
  keepable,
  type KeptColumn,
  type ReadEngine,
  readKeptColumn,
  type ViewShape,
} from "../parquet/mod.ts";
import { partsDigest, touch } from "./_parts_lru.ts";
import type { Store, StoredVersion } from "../store/mod.ts";

/** The page cache's bytes over those the kept columns may hold together. */
export const KEPT_COLUMNS_SHARE = 8;

/** Counts of a version's column before it is kept. */
const COUNTS_BEFORE_KEEP = 2;
/** Columns whose counts (or refusals) are remembered. */
const REMEMBERED = 4096;

/** A node's kept columns (see the module's documentation). */
export interface KeptColumns {
  /**
   * The kept columns of `version` (of shape `shape`) named `names` (as the
   * version spells them, or differing only in case) when every one is
   * kept, else null; notes the ask, and starts keeping those asked before.
   */
  columnsFor(
    version: StoredVersion,
    shape: ViewShape,
    names: readonly string[],
  ): ReadonlyMap<string, KeptColumn> | null;
  /** Resolves once no column is being read. */
  settled(): Promise<void>;
  /** Columns kept, and their bytes. */
  kept(): { columns: number; bytes: number };
}

/**
 * The kept columns of a node reading with `engine` from `store` (whose
 * parts are leased while a column is read), holding at most `maxBytes`.
 *
 * @example
 * ```ts ignore
 * import { keptColumns } from "./kept_columns.ts";
 * const columns = keptColumns(engine, store, 32 * 1024 ** 2);
 * const kept = columns.columnsFor(version, shape, ["country", "id"]); // null until both are kept
 * ```
 */
export function keptColumns(engine: ReadEngine, store: Pick<Store, "lease">, maxBytes: number): KeptColumns {
  /** Columns kept, least recently used first. */
  const made = new Map<string, KeptColumn>();
  /** Counts of columns not kept yet; -1 for one being read or never to be kept. */
  const counts = new Map<string, number>();
  let keptBytes = 0;
  let making: Promise<void> = Promise.resolve();

  const make = async (key: string, version: StoredVersion, shape: ViewShape, name: string) => {
    let release = () => {};
    try {
      release = await store.lease(version.parts);
      const paths = version.parts.map((p) => p.path);
      const column = await readKeptColumn(engine, paths, shape.columns, shape.uniform, name, maxBytes);
      if (!column) return; // not kept: its type, or larger than all may hold
      made.set(key, column);
      keptBytes += column.bytes;
      counts.delete(key);
      for (const [oldest, old] of made) {
        if (keptBytes <= maxBytes) break;
        made.delete(oldest);
        keptBytes -= old.bytes;
      }
    } catch {
      // Counted by DuckDB, as before: a kept column only saves time.
    } finally {
      release();
    }
  };

  /** Notes an ask of column `name`; reads it in the background on its second. */
  const ask = (key: string, version: StoredVersion, shape: ViewShape, name: string) => {
    const before = counts.get(key) ?? 0;
    if (before < 0) return;
    if (before + 1 < COUNTS_BEFORE_KEEP) return touch(counts, key, before + 1, REMEMBERED);
    touch(counts, key, -1, REMEMBERED);
    making = making.then(() => make(key, version, shape, name));
  };

  return {
    columnsFor(version, shape, names) {
      if (maxBytes <= 0 || version.parts.length === 0) return null;
      const prefix = partsDigest(version);
      const columns = names.map((name) => findViewColumn(shape.columns, name));
      if (columns.some((c) => !c || !keepable(c.type))) return null;
      const wanted = new Set(columns.map((c) => c!.name));
      const found = new Map<string, KeptColumn>();
      for (const name of wanted) {
        const key = `${prefix}\n${name}`;
        const kept = made.get(key);
        if (kept) {
          touch(made, key, kept, Infinity);
          found.set(name, kept);
        } else ask(key, version, shape, name);
      }
      return found.size === wanted.size ? found : null;
    },
    settled: () => making,
    kept: () => ({ columns: made.size, bytes: keptBytes }),
  };
}
