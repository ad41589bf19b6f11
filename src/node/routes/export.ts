/**
 * `GET /projects/{slug}/export?version=N`: every record of a version as
 * gzip-compressed JSON lines. The first download streams from the parts and
 * keeps a copy in the store; later ones are served from that file, with
 * single byte ranges (`Range`, `If-Range`), so a cut download resumes. Both
 * carry the same strong ETag, named after the version and its parts: the
 * bytes of an export never differ for one tag.
 *
 * @module
 */
import { relay } from "../../http/mod.ts";
import { gzipJsonLines } from "../../parquet/mod.ts";
import { exportTag, type StoredVersion } from "../../store/mod.ts";
import { holdVersion, NO_VERSION_YET, requireProject } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";

import { NodeError } from "../../errors/mod.ts";
import { intParam } from "./_params.ts";
import { rangedFile } from "./_range.ts";

/** `GET /projects/{slug}/export?version=N` (version required). */
export async function getExport(ctx: NodeContext, req: Request, slug: string, url: URL): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1, fallback: null });
  if (wanted === null) {
    const newest = (await requireProject(ctx, slug)).versions.newest ?? undefined;
    if (newest === undefined) throw new NodeError("not-found", NO_VERSION_YET);
    throw new NodeError("bad-request", `name the version: ?version=${newest} is the newest`);
  }
  // The parts stay on disk while the export reads them, whatever a prune decides meanwhile.
  const held = await holdVersion(ctx, slug, wanted);
  try {
    return await exportOf(ctx, req, slug, held.version, held.release);
  } catch (e) {
    held.release();
    throw e;
  }
}

async function exportOf(
  ctx: NodeContext,
  req: Request,
  slug: string,
  version: StoredVersion,
  release: () => void,
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/gzip",
    "content-disposition": `attachment; filename="${slug}-v${version.version}.jsonl.gz"`,
    "cache-control": "no-store",
    "x-svc-node": "1",
  };
  const etag = `"${slug}-${exportTag(version)}"`;
  const cached = await ctx.exports.open(version);
  if (cached) {
    release();
    return await rangedFile(req, cached.handle, cached.size, headers, etag);
  }
  // Streamed as it is made: no length yet, so no ranges (a resumed download hears 200 and starts over).
  headers.etag = etag;
  if (req.method === "HEAD") {
    release();
    return new Response(null, { headers });
  }
  // Made exports cost memory (blocks of lines built ahead): past the budget's share they wait their turn.
  const done = await ctx.exportTurns.take();
  try {
    const groups = await ctx.pages.partGroups(version);
    const body = ctx.exports.keep(
      gzipJsonLines(ctx.engine, version, { blocks: ctx.memory.exportBlocks, groups }),
      version,
    );
    return new Response(relay(body, { settled: () => (done(), release()) }), { headers });
  } catch (e) {
    done();
    throw e;
  }
}
