/**
 * What a view counts (`GET /projects/{slug}/data` with filters, search or
 * `facet=`): its total, and each facet column's most frequent values among
 * its records, counted in one scan. A version never changes, so neither does
 * what any view of it counts: both are kept per version and view (the
 * filters and search; a sort counts the same) once counted, a few thousand
 * per node at most, so paging a view, or asking for its facets again, scans
 * nothing. A view of every record takes its total from the parts' row
 * counts, so only its facets are kept.
 *
 * @module
 */
import {
  type Facet,
  type FacetsAndTotal,
  keptCounts,
  keptView,
  ViewError,
  viewFacetsAndTotal,
  type ViewShape,
  type ViewSpec,
} from "../parquet/mod.ts";
import type { StoredVersion } from "../store/mod.ts";
import type { NodeState } from "./state.ts";

/** What counting needs of a node: its engine, and its read copies and kept columns when it has them. */
type CountingState = Pick<NodeState, "engine"> & Partial<Pick<NodeState, "readCopies" | "keptColumns">>;

/** Most counts kept (totals and facets), and most characters of the facets' values. */
const KEPT = 2048;
const KEPT_CHARS = 4 * 1024 * 1024;

/** Totals and facets, by `<parts>\n<view>[\n<column>\n<size>]`, least recently used first. */
const kept = new Map<string, number | Facet>();
let keptChars = 0;

function charsOf(entry: number | Facet): number {
  if (typeof entry === "number") return 32;
  return entry.values.reduce((n, v) => n + v.value.length + 16, entry.column.length);
}

function keep(key: string, entry: number | Facet): void {
  const chars = charsOf(entry);
  if (chars > KEPT_CHARS / 8) return;
  const old = kept.get(key);
  if (old !== undefined) keptChars -= charsOf(old);
  kept.delete(key);
  kept.set(key, entry);
  keptChars += chars;
  for (const [oldest, entry] of kept) {
    if (kept.size <= KEPT && keptChars <= KEPT_CHARS) break;
    kept.delete(oldest);
    keptChars -= charsOf(entry);
  }
}

function lookUp<T extends number | Facet>(key: string): T | undefined {
  const entry = kept.get(key);
  if (entry !== undefined) {
    kept.delete(key);
    kept.set(key, entry);
  }
  return entry as T | undefined;
}

/** The key of what `spec` of `version` counts: its parts and its filters and search. */
function viewKey(version: StoredVersion, spec: ViewSpec): string {
  return `${version.parts.map((p) => p.sha256).join(",")}\n${JSON.stringify([spec.filters, spec.search])}`;
}

/**
 * The records the view `spec` of `version` holds, when counted before and
 * still kept.
 *
 * @example
 * ```ts ignore
 * import { keptTotal } from "./facets.ts";
 * keptTotal(version, spec); // undefined until the view was counted
 * ```
 */
export function keptTotal(version: StoredVersion, spec: ViewSpec): number | undefined {
  return lookUp<number>(viewKey(version, spec));
}

/**
 * Keeps `total` as the records the view `spec` of `version` holds.
 *
 * @example
 * ```ts ignore
 * import { keepTotal } from "./facets.ts";
 * keepTotal(version, spec, 6175);
 * ```
 */
export function keepTotal(version: StoredVersion, spec: ViewSpec, total: number): void {
  keep(viewKey(version, spec), total);
}

/** A view's facets, and its total when this counted it. */
export interface ViewFacets {
  /** One per column asked for, each once, in the order asked. */
  facets: Facet[];
  /** Records in the view, when known here (not for a view of every record: the caller has the parts' counts). */
  total: number | null;
}

/**
 * The `size` most frequent values of each of `columns` in the view `spec` of
 * `version` (of shape `shape`), and the view's total: what is kept, the rest
 * counted in one scan and kept.
 *
 * @example
 * ```ts ignore
 * import { facetsOf } from "./facets.ts";
 * const { facets, total } = await facetsOf(state, version, shape, spec, ["country"], 30);
 * ```
 */
export async function facetsOf(
  state: CountingState,
  version: StoredVersion,
  shape: ViewShape,
  spec: ViewSpec,
  columns: readonly string[],
  size: number,
): Promise<ViewFacets> {
  const view = viewKey(version, spec);
  const everyRecord = spec.filters.length === 0 && spec.search === null;
  const wanted = [...new Set(columns)];
  const keyOf = (column: string) => `${view}\n${column}\n${size}`;
  const found = new Map(wanted.map((c) => [c, lookUp<Facet>(keyOf(c))]));
  let total = everyRecord ? null : lookUp<number>(view) ?? null;
  const missing = wanted.filter((c) => !found.get(c));
  if (missing.length > 0 || (!everyRecord && total === null)) {
    const counted = await counts(state, version, shape, spec, missing, size);
    for (const facet of counted.facets) {
      found.set(facet.column, facet);
      keep(keyOf(facet.column), facet);
    }
    if (!everyRecord) keep(view, total = counted.total);
  }
  return { facets: wanted.map((c) => found.get(c)!), total };
}

/** The counts of `facets` and the total of the view `spec`: from the version's read copy when it has one. */
async function counts(
  state: CountingState,
  version: StoredVersion,
  shape: ViewShape,
  spec: ViewSpec,
  facets: readonly string[],
  size: number,
): Promise<FacetsAndTotal> {
  // Counted over kept columns when every filter can be; only then are its columns asked for (and kept on a second ask).
  const kept = keptView(shape.columns, spec)
    ? state.keptColumns?.columnsFor(version, shape, [...facets, ...spec.filters.map((f) => f.column)])
    : null;
  const fromKept = kept ? keptCounts(kept, shape.columns, spec, facets, size) : null;
  if (fromKept) return fromKept;
  const source = state.readCopies?.countFrom(version, shape);
  if (source?.copy) {
    try {
      return await viewFacetsAndTotal(state.engine, source.paths, shape, spec, facets, size);
    } catch (e) {
      if (e instanceof ViewError) throw e;
      await state.readCopies!.drop(version);
    }
  }
  return await viewFacetsAndTotal(state.engine, version.parts.map((p) => p.path), shape, spec, facets, size);
}
