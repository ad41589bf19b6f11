/**
 * `GET /projects/{slug}/data`: a page of records (see `readPage`).
 *
 * @module
 */
import { DEFAULT_PAGE, MAX_PAGE, readPage } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonBytes } from "../response.ts";
import { intParam } from "./_params.ts";

/** `GET /projects/{slug}/data?version&limit&offset`. */
export async function getData(ctx: NodeContext, slug: string, url: URL): Promise<Response> {
  const version = intParam(url, "version", { min: 1, fallback: null });
  const limit = intParam(url, "limit", { min: 1, max: MAX_PAGE, fallback: DEFAULT_PAGE })!;
  const offset = intParam(url, "offset", { min: 0, fallback: 0 })!;
  return jsonBytes(await readPage(ctx, slug, { version, limit, offset }));
}
