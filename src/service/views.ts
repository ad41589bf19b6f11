/**
 * A page of a view of a version: the records that pass the filters and the
 * search, in the sort's order, as `GET /projects/{slug}/data` gives a page
 * (`{project, version, count, records, total, next}`, `total` the records in
 * the view), with the view's facets when asked. See `src/parquet/view.ts`
 * for how the view is queried.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import { WIRE_LIMITS } from "../wire/mod.ts";
import {
  cachedRecords,
  findViewColumn,
  orderable,
  spelledAsColumns,
  viewPage,
  type ViewShape,
  viewShape,
  type ViewSpec,
  withoutIdleFilters,
} from "../parquet/mod.ts";
import { facetsOf } from "./facets.ts";
import { sortedRecords, type SortedState } from "./sorted.ts";
import { ViewError } from "../parquet/mod.ts";
import type { StoredVersion } from "../store/mod.ts";
import type { PageRequest } from "./pages.ts";
import type { NodeState } from "./state.ts";
import { withVersion } from "./versions.ts";

/** A page of a view: which page, and of which view. */
export interface ViewRequest extends PageRequest {
  /** The filters, search and sort. */
  view: ViewSpec;
  /** Columns whose most frequent values the answer lists (at most {@linkcode MAX_FACETS}), or none. */
  facets?: readonly string[];
}

/** Most facet columns one page takes. */
export const MAX_FACETS: number = WIRE_LIMITS.facets;
/** Most filters one view takes. */
export const MAX_FILTERS: number = WIRE_LIMITS.filters;
/** Most values of one `in` filter. */
export const MAX_IN: number = WIRE_LIMITS.inValues;
/** Longest filter value (and search) in characters. */
export const MAX_VALUE: number = WIRE_LIMITS.valueChars;
/** Values listed per facet. */
export const FACET_SIZE = 30;

/** Shapes of versions seen lately, by their parts (a version's parts never change). */
const known = new Map<string, ViewShape>();

/**
 * The columns of `version`'s parts and whether they all agree, read once per
 * set of parts.
 */
export async function shapeOf(state: Pick<NodeState, "engine">, version: StoredVersion): Promise<ViewShape> {
  const key = version.parts.map((p) => p.sha256).join(",");
  let shape = known.get(key);
  if (!shape) {
    shape = await viewShape(state.engine, version.parts.map((p) => p.path), { nullCounts: true });
    if (known.size >= 256) known.clear();
    known.set(key, shape);
  }
  return shape;
}

async function asBadRequest<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof ViewError) throw new NodeError("bad-request", e.message);
    throw e;
  }
}

/**
 * The page of the view `request` names of `slug`, as the JSON text of the
 * answer; a view naming a column the version lacks, or a value not of its
 * column's type, is a bad request. A page of every record comes from the
 * page reader, sorted by the version's kept order when it has a sort (see
 * `sorted.ts`); so does a view whose every filter leaves no record out, as
 * the parts' footers show (`id__gte=0` over ids from 0).
 */
export async function readView(
  state: SortedState,
  slug: string,
  request: ViewRequest,
): Promise<string> {
  const { limit, offset } = request;
  const facets = request.facets ?? [];
  if (facets.length > MAX_FACETS) throw new NodeError("bad-request", `a page takes at most ${MAX_FACETS} facets`);
  return await withVersion(state, slug, request.version, async (version) => {
    const paths = version.parts.map((p) => p.path);
    const shape = await shapeOf(state, version);
    // A filter every record passes, as the footers show, is no filter: the page is cut from memory, the counts kept.
    const view = withoutIdleFilters(shape, spelledAsColumns(shape.columns, request.view));
    const everyRecord = view.filters.length === 0 && view.search === null;
    const spelled = facets.map((name) => findViewColumn(shape.columns, name)?.name ?? name);
    const counted = facets.length === 0 ? null : facetsOf(state, version, shape, view, spelled, FACET_SIZE);
    counted?.catch(() => {}); // its failure is the page's
    // A view of every record holds the parts' rows; a filtered one is counted with its facets, or beside its page
    // (from the version's read copy when it has one), once: what a view counts is kept.
    const total = everyRecord
      ? (await state.pages.partRecords(version)).reduce((a, b) => a + b, 0)
      : (counted ?? facetsOf(state, version, shape, view, [], FACET_SIZE)).then((f) => f.total!);
    if (total instanceof Promise) total.catch(() => {}); // its failure is the page's too
    const [page, facetList] = await asBadRequest(Promise.all([
      everyRecord && (view.sort === null || orderable(shape, view.sort, total as number))
        ? (view.sort === null
          ? state.pages.page(version, offset, limit)
          : sortedRecords(state, version, shape, view.sort, offset, limit)).then(async (records) => ({
            records,
            total: await total!,
          }))
        : viewPage(state.engine, paths, shape, view, offset, limit, total, cachedRecords(state.pages, version)),
      counted?.then((f) => f.facets) ?? null,
    ]));
    const next = page.records.length > 0 && offset + page.records.length < page.total
      ? offset + page.records.length
      : null;
    const facetText = facetList === null
      ? ""
      : `,"facets":[${
        facetList.map((f) =>
          `{"column":${JSON.stringify(f.column)},"values":[${
            f.values.map((v) => `{"value":${v.value},"count":${v.count}}`).join(",")
          }],"truncated":${f.truncated}}`
        ).join(",")
      }]`;
    return `{"project":${JSON.stringify(slug)},"version":${version.version},"count":${page.records.length},` +
      `"records":[${page.records.join(",")}],"total":${page.total},"next":${next}${facetText}}`;
  });
}
