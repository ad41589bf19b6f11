/**
 * Delta Sharing's footers read from a store in an object store: the
 * node's footer reader given images of the parts' footers (see
 * `Store.footerPaths`) instead of the parts, so that table metadata and
 * file statistics fetch no part: Spark and pandas fetch the parts
 * themselves, from the bucket.
 *
 * @module
 */
import { basename } from "node:path";
import type { FooterReader } from "../sharing/mod.ts";
import type { Store } from "../store/mod.ts";

/** Columns of versions kept, at most. */
const COLUMNS_KEPT = 4096;

/**
 * `inner` reading footers through `store`'s footer paths; `inner` itself
 * for a directory store.
 *
 * @example
 * ```ts ignore
 * import { storeFooters } from "./store_footers.ts";
 * import { footerReader } from "../sharing/mod.ts";
 * declare const engine: import("../parquet/mod.ts").ReadEngine;
 * declare const store: import("../store/mod.ts").Store;
 * const footers = storeFooters(footerReader(engine), store);
 * ```
 */
export function storeFooters(inner: FooterReader, store: Store): FooterReader {
  if (!store.remote) return inner;
  const imaged = async <P extends { sha256: string; path: string }>(parts: readonly P[]) => {
    const paths = await store.footerPaths(parts);
    return parts.map((p, i) => ({ ...p, path: paths[i] }));
  };
  const each = <T>(all: Promise<T[]>, count: number) => Array.from({ length: count }, (_, i) => all.then((l) => l[i]));
  const columns = new Map<string, ReturnType<FooterReader["columns"]>>();
  return {
    statsOf: (parts, cols) => each(imaged(parts).then((ps) => Promise.all(inner.statsOf(ps, cols))), parts.length),
    factsOf: (parts, cols) => each(imaged(parts).then((ps) => Promise.all(inner.factsOf(ps, cols))), parts.length),
    columns(key, paths) {
      const known = columns.get(key);
      if (known) return known;
      const parts = paths.map((path) => ({ sha256: basename(path, ".parquet"), path }));
      const reading = imaged(parts).then((ps) => inner.columns(key, ps.map((p) => p.path)));
      reading.catch(() => columns.delete(key));
      if (columns.size >= COLUMNS_KEPT) columns.delete(columns.keys().next().value!);
      columns.set(key, reading);
      return reading;
    },
  };
}
