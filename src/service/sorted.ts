/**
 * Sorted pages of a view of every record (`sort` or `sort_desc` without
 * filters or search) from a kept order: the version's records in the
 * sort's order computed once per version, column and direction (one DuckDB
 * sort; 4 bytes a record), kept beside the version as its statistics are
 * (`v<N>/order-….bin`; a `--read-only` node keeps it in memory only) and in
 * memory (a bounded few per node); a page is then the records at its
 * positions, cut from the page cache, at the cost of an unsorted page
 * wherever it starts. Concurrent first requests share one computation.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { type SortKey, sortOrder, type ViewShape } from "../parquet/mod.ts";
import { readOrder, type StoredVersion, writeOrder } from "../store/mod.ts";
import type { NodeState } from "./state.ts";

/** What sorted pages need of the node. */
export type SortedState = Pick<NodeState, "store" | "engine" | "pages" | "readOnly" | "log" | "memory">;

/** Orders kept in memory, by tag, least recently used first; and the computations under way. */
const kept = new Map<string, Uint32Array>();
const running = new Map<string, Promise<Uint32Array>>();
let keptBytes = 0;

/** Bytes of orders a node keeps in memory: a quarter of its page cache's, 8 to 64 MiB. */
function keptMost(state: Pick<NodeState, "memory">): number {
  return Math.min(64 * 1024 ** 2, Math.max(8 * 1024 ** 2, state.memory.pageCache / 4));
}

function remember(state: Pick<NodeState, "memory">, tag: string, order: Uint32Array): void {
  const most = keptMost(state);
  if (order.byteLength > most) return;
  kept.set(tag, order);
  keptBytes += order.byteLength;
  for (const [old, oldOrder] of kept) {
    if (keptBytes <= most) break;
    kept.delete(old);
    keptBytes -= oldOrder.byteLength;
  }
}

/** What an order is computed from: its format, the column, the direction and the version's parts. */
function tagOf(version: StoredVersion, sort: SortKey): string {
  const parts = createHash("sha256").update(version.parts.map((p) => p.sha256).join("\n")).digest("hex");
  return `${JSON.stringify(sort.column)} ${sort.descending ? "desc" : "asc"} ${parts.slice(0, 32)}`;
}

/** The kept file's order, or the order computed now (and kept, unless the node is read-only). */
async function load(state: SortedState, version: StoredVersion, shape: ViewShape, sort: SortKey, tag: string) {
  const { slug } = version;
  const found = await readOrder(state.store.root, slug, version.version, tag).catch(() => null);
  const counts = await state.pages.partRecords(version);
  if (found !== null && found.length === counts.reduce((a, b) => a + b, 0)) return found;
  const order = await sortOrder(state.engine, version.parts.map((p) => p.path), counts, shape, sort);
  if (!state.readOnly) {
    await writeOrder(state.store.root, slug, version.version, tag, order).catch((e) =>
      state.log.warn(`could not keep the order of ${slug} v${version.version}: ${(e as Error)?.message ?? e}`)
    );
  }
  return order;
}

/**
 * The order of `version`'s records by `sort`: kept in memory, else read from
 * its file, else computed (once for every request asking meanwhile).
 *
 * @example
 * ```ts ignore
 * import { keptOrder } from "./sorted.ts";
 * const order = await keptOrder(state, version, shape, { column: "population", descending: true });
 * ```
 */
export async function keptOrder(
  state: SortedState,
  version: StoredVersion,
  shape: ViewShape,
  sort: SortKey,
): Promise<Uint32Array> {
  const tag = tagOf(version, sort);
  const hit = kept.get(tag);
  if (hit) {
    kept.delete(tag);
    kept.set(tag, hit);
    return hit;
  }
  let under = running.get(tag);
  if (!under) {
    under = load(state, version, shape, sort, tag).then((order) => {
      remember(state, tag, order);
      return order;
    }).finally(() => running.delete(tag));
    running.set(tag, under);
  }
  return await under;
}

/**
 * Records `offset` to `offset + limit` of `version` sorted by `sort`, each as
 * JSON text, from its kept order (see {@linkcode keptOrder}).
 *
 * @example
 * ```ts ignore
 * import { sortedRecords } from "./sorted.ts";
 * const records = await sortedRecords(state, version, shape, { column: "population", descending: true }, 0, 50);
 * ```
 */
export async function sortedRecords(
  state: SortedState,
  version: StoredVersion,
  shape: ViewShape,
  sort: SortKey,
  offset: number,
  limit: number,
): Promise<string[]> {
  const order = await keptOrder(state, version, shape, sort);
  return await state.pages.recordsAt(version, order.subarray(offset, offset + limit));
}
