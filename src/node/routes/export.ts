/**
 * `GET /projects/{slug}/export?version=N`: every record of a version as
 * gzip-compressed JSON lines. The first download streams from the parts and
 * keeps a copy in the store; later ones are served from that file.
 *
 * @module
 */
import { gzipJsonLines } from "../../parquet/mod.ts";
import { leaseParts } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { fileBody } from "../file_body.ts";
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
  const cached = await ctx.exports.open(version);
  if (cached) {
    headers["content-length"] = String(cached.size);
    if (req.method === "HEAD") {
      await cached.handle.close();
      return new Response(null, { headers });
    }
    return new Response(fileBody(cached.handle, 0, cached.size - 1), { headers });
  }
  if (req.method === "HEAD") return new Response(null, { headers });
  // The parts stay on disk while the export reads them, whatever a prune decides meanwhile.
  const release = leaseParts(version.parts.map((p) => p.path));
  const body = ctx.exports.keep(gzipJsonLines(ctx.engine, version), version);
  return new Response(released(body, release), { headers });
}

function released(stream: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (e) {
        release();
        controller.error(e);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
