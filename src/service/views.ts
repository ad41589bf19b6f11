/**
 * A page of a view of a version: the records that pass the filters and the
 * search, in the sort's order, as `GET /projects/{slug}/data` gives a page
 * (`{project, version, count, records, total, next}`, `total` the records in
 * the view). See `src/parquet/view.ts` for how the view is queried.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import { type ViewColumn, viewColumns, ViewError, viewPage, type ViewSpec } from "../parquet/mod.ts";
import type { PageRequest } from "./pages.ts";
import type { NodeState } from "./state.ts";
import { withVersion } from "./versions.ts";

/** A page of a view: which page, and of which view. */
export interface ViewRequest extends PageRequest {
  /** The filters, search and sort. */
  view: ViewSpec;
}

/** Columns of versions seen lately, by their parts (a version's parts never change). */
const known = new Map<string, ViewColumn[]>();

async function columnsOf(state: Pick<NodeState, "engine">, paths: string[], key: string): Promise<ViewColumn[]> {
  let columns = known.get(key);
  if (!columns) {
    columns = await viewColumns(state.engine, paths);
    if (known.size >= 256) known.clear();
    known.set(key, columns);
  }
  return columns;
}

/**
 * The page of the view `request` names of `slug`, as the JSON text of the
 * answer; a view naming a column the version lacks, or a value not of its
 * column's type, is a bad request.
 */
export async function readView(
  state: Pick<NodeState, "store" | "engine">,
  slug: string,
  request: ViewRequest,
): Promise<string> {
  const { limit, offset } = request;
  return await withVersion(state, slug, request.version, async (version) => {
    const paths = version.parts.map((p) => p.path);
    const columns = await columnsOf(state, paths, version.parts.map((p) => p.sha256).join(","));
    let page;
    try {
      page = await viewPage(state.engine, paths, columns, request.view, offset, limit);
    } catch (e) {
      if (e instanceof ViewError) throw new NodeError("bad-request", e.message);
      throw e;
    }
    const next = page.records.length > 0 && offset + page.records.length < page.total
      ? offset + page.records.length
      : null;
    return `{"project":${JSON.stringify(slug)},"version":${version.version},"count":${page.records.length},` +
      `"records":[${page.records.join(",")}],"total":${page.total},"next":${next}}`;
  });
}
