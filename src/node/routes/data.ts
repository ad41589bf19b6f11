/**
 * `GET /projects/{slug}/data`: a page of records (see `readPage`), or of a
 * view of them (see `readView`).
 *
 * @module
 */
import { DEFAULT_PAGE, MAX_PAGE, readPage, readView } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonBytes, jsonText } from "../response.ts";
import { intParam } from "./_params.ts";
import { downloadFormat, getDownload } from "./download.ts";
import { facetsOf, viewOf } from "./_view_params.ts";

/**
 * `GET /projects/{slug}/data?version&limit&offset`, and with filters
 * (`COLUMN__OP=VALUE`), `q` or `sort`/`sort_desc` a page of that view;
 * `facet=COLUMN` (repeated) adds the view's most frequent values of each.
 */
export async function getData(ctx: NodeContext, req: Request, slug: string, url: URL): Promise<Response> {
  const format = downloadFormat(req, url);
  if (format) return await getDownload(ctx, req, slug, url, format);
  const version = intParam(url, "version", { min: 1, fallback: null });
  const limit = intParam(url, "limit", { min: 1, max: MAX_PAGE, fallback: DEFAULT_PAGE })!;
  const offset = intParam(url, "offset", { min: 0, fallback: 0 })!;
  const view = viewOf(url);
  const facets = facetsOf(url);
  if (view !== null || facets.length > 0) {
    const spec = view ?? { filters: [], search: null, sort: null };
    return jsonText(await readView(ctx, slug, { version, limit, offset, view: spec, facets }));
  }
  return jsonBytes(await readPage(ctx, slug, { version, limit, offset }));
}
