/**
 * `GET /projects/{slug}/export?version=N`: every record of a version as
 * gzip-compressed JSON lines. The first download streams from the parts and
 * keeps a copy in the store; later ones are served from that file.
 *
 * @module
 */
import { gzipJsonLines } from "../../parquet/mod.ts";
import { exportCachePath, keepWhileStreaming } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { fileBody, openRegularFile } from "../file_body.ts";
import { intParam } from "./_params.ts";
import { requireVersion } from "./_version.ts";

/** `GET /projects/{slug}/export?version=N` (version required). */
export async function getExport(ctx: NodeContext, req: Request, slug: string, url: URL): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1 });
  const version = await requireVersion(ctx, slug, wanted);
  const headers: Record<string, string> = {
    "content-type": "application/gzip",
    "content-disposition": `attachment; filename="${slug}-v${version.version}.jsonl.gz"`,
    "cache-control": "no-store",
    "x-svc-node": "1",
  };
  const path = exportCachePath(ctx.store.root, version);
  const cached = await openRegularFile(path);
  if (cached) {
    headers["content-length"] = String(cached.size);
    if (req.method === "HEAD") {
      await cached.handle.close();
      return new Response(null, { headers });
    }
    return new Response(fileBody(cached.handle, 0, cached.size - 1), { headers });
  }
  if (req.method === "HEAD") return new Response(null, { headers });
  return new Response(keepWhileStreaming(gzipJsonLines(ctx.engine, version), path), { headers });
}
