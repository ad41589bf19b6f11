/**
 * `GET /projects/{slug}/data`: a page of records.
 *
 * @module
 */
import { withLease } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonBytes } from "../response.ts";

const encoder = new TextEncoder();
import { intParam } from "./_params.ts";
import { requireVersion } from "./_version.ts";

/** Largest page of `GET /data`. */
export const MAX_PAGE = 1000;
/** Page size when `limit` is absent. */
export const DEFAULT_PAGE = 200;

/**
 * `GET /projects/{slug}/data?version&limit&offset`: `{project, version, count,
 * records, total, next}`, `total` the records in the version and `next` the
 * offset of the next page (null after the last).
 */
export async function getData(ctx: NodeContext, slug: string, url: URL): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1, fallback: null });
  const limit = intParam(url, "limit", { min: 1, max: MAX_PAGE, fallback: DEFAULT_PAGE })!;
  const offset = intParam(url, "offset", { min: 0, fallback: 0 })!;
  const version = await requireVersion(ctx, slug, wanted);
  const [records, counts] = await withLease(
    version.parts.map((p) => p.path),
    () => Promise.all([ctx.pages.pageBytes(version, offset, limit), ctx.pages.partRecords(version)]),
  );
  const total = counts.reduce((a, n) => a + n, 0);
  const next = records.count > 0 && offset + records.count < total ? offset + records.count : null;
  const head = encoder.encode(
    `{"project":${JSON.stringify(slug)},"version":${version.version},"count":${records.count},"records":[`,
  );
  const tail = encoder.encode(`],"total":${total},"next":${next}}`);
  const body = new Uint8Array(head.length + records.bytes.length + tail.length);
  body.set(head);
  body.set(records.bytes, head.length);
  body.set(tail, head.length + records.bytes.length);
  return jsonBytes(body);
}
