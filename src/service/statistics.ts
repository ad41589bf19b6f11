/**
 * A version's column statistics (`GET /projects/{slug}/statistics`),
 * computed once per version and kept with it: the first request computes
 * them on the node's own DuckDB (see `src/parquet/statistics.ts`) while the
 * version is held, and keeps the answer in `v<N>/statistics.json`; later
 * requests read that file, or the answer kept in memory (a few versions per
 * node, bounded). Concurrent first requests for one version share one
 * computation. A `--read-only` node writes nothing into the store: it serves
 * a kept file it finds and keeps what it computes in memory only.
 *
 * @module
 */
import type { ServiceTable } from "./service_table.ts";
import { createHash } from "node:crypto";
import { columnStatistics, statisticsText } from "../parquet/mod.ts";
import { readStatistics, type Store, type StoredVersion, writeStatistics } from "../store/mod.ts";
import type { NodeState } from "./state.ts";
import { withVersion } from "./versions.ts";

/** What the statistics need of the node. */
export type StatisticsState = Pick<NodeState, "store" | "engine" | "readOnly" | "log">;

/** Names how the answer is made: a change here makes every kept file stale (it is computed again). */
const STATISTICS_FORMAT = "svc-statistics-1";

/** Most answers kept in memory per node, and most characters. */
const MEMORY_ENTRIES = 64;
const MEMORY_CHARS = 16 * 1024 * 1024;

/** What a node keeps between requests: answers by version, least recently used first, and computations under way. */
interface Kept {
  texts: Map<string, string>;
  chars: number;
  running: Map<string, Promise<string>>;
}

const keptByStore = new WeakMap<Store, Kept>();

function keptOf(store: Store): Kept {
  let kept = keptByStore.get(store);
  if (!kept) keptByStore.set(store, kept = { texts: new Map(), chars: 0, running: new Map() });
  return kept;
}

function remember(kept: Kept, key: string, text: string): void {
  if (text.length > MEMORY_CHARS) return;
  kept.texts.set(key, text);
  kept.chars += text.length;
  for (const [old, oldText] of kept.texts) {
    if (kept.texts.size <= MEMORY_ENTRIES && kept.chars <= MEMORY_CHARS) break;
    kept.texts.delete(old);
    kept.chars -= oldText.length;
  }
}

/** What the answer of `version` is computed from: the format and the version's parts. */
function tagOf(version: StoredVersion): string {
  const parts = createHash("sha256").update(version.parts.map((p) => p.sha256).join("\n")).digest("hex");
  return `${STATISTICS_FORMAT} ${parts.slice(0, 32)}`;
}

/** The kept file's answer, or the answer computed now (and kept, unless the node is read-only). */
async function load(state: StatisticsState, version: StoredVersion, tag: string): Promise<string> {
  const { slug } = version;
  const root = state.store.root;
  const found = await readStatistics(root, slug, version.version, tag).catch(() => null);
  if (found !== null) return found;
  const stats = await columnStatistics(state.engine, version.parts.map((p) => p.path));
  const text = statisticsText(slug, version.version, stats);
  if (!state.readOnly) {
    await writeStatistics(root, slug, version.version, tag, text).catch((e) =>
      state.log.warn(`could not keep the statistics of ${slug} v${version.version}: ${(e as Error)?.message ?? e}`)
    );
  }
  return text;
}

/**
 * The statistics of version `wanted` of `slug` (the newest whole one when
 * null), as the JSON text of the answer: `{project, version, records,
 * approximate, suggestedFacets, columns}` (see docs/api.md). Not found as
 * `withVersion` says.
 *
 * @example
 * ```ts ignore
 * import { versionStatistics } from "./statistics.ts";
 * const text = await versionStatistics(node, "world-cities", null);
 * console.log(JSON.parse(text).suggestedFacets);
 * ```
 */
export async function versionStatistics(state: StatisticsState, slug: string, wanted: number | null): Promise<string> {
  return await withVersion(state, slug, wanted, async (version) => {
    const kept = keptOf(state.store);
    const tag = tagOf(version);
    const key = `${slug}\n${version.version}\n${tag}`;
    const hit = kept.texts.get(key);
    if (hit !== undefined) {
      kept.texts.delete(key);
      kept.texts.set(key, hit);
      return hit;
    }
    let running = kept.running.get(key);
    if (!running) {
      running = load(state, version, tag).then((text) => {
        remember(kept, key, text);
        return text;
      }).finally(() => kept.running.delete(key));
      kept.running.set(key, running);
    }
    return await running;
  });
}

/** The statistics' operation, answered by its service alone. */
export const STATISTICS_SERVICES = {
  statistics: (state, input) => versionStatistics(state, input.slug, input.version),
} as const satisfies ServiceTable;
