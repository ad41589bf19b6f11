/**
 * `GET /projects/{slug}/export?version=N`: every record of a version as
 * gzip-compressed JSON lines, streamed.
 *
 * @module
 */
import { gzipJsonLines } from "../../parquet/mod.ts";
import type { NodeContext } from "../context.ts";
import { intParam } from "./_params.ts";
import { requireVersion } from "./_version.ts";

/** `GET /projects/{slug}/export?version=N` (version required). */
export async function getExport(ctx: NodeContext, req: Request, slug: string, url: URL): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1 });
  const version = await requireVersion(ctx, slug, wanted);
  const body = req.method === "HEAD" ? null : gzipJsonLines(ctx.engine, version);
  return new Response(body, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${slug}-v${version.version}.jsonl.gz"`,
      "cache-control": "no-store",
      "x-svc-node": "1",
    },
  });
}
