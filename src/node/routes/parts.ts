/**
 * `GET /parts/{slug}/{sha256}.parquet`: one part, streamed, with a strong
 * ETag (its digest), immutable caching and single byte ranges.
 *
 * @module
 */
import { isSha256 } from "../../wire/mod.ts";
import type { NodeContext } from "../context.ts";
import { openRegularFile } from "../file_body.ts";
import { hasToken } from "../guards/token.ts";
import { PART_URL_LIFETIME_S, partSignatureValid } from "../../service/mod.ts";

import { NodeError } from "../../errors/mod.ts";
import { matchesEtag, rangedFile } from "./_range.ts";

/** The media type of Parquet files. */
export const PARQUET_TYPE = "application/vnd.apache.parquet";

function partSha(file: string): string {
  return file.endsWith(".parquet") ? file.slice(0, -".parquet".length) : "";
}

/** Whether `url` is a valid, unexpired signed URL of the part `file` of `slug`. */
export function partUrlSigned(ctx: NodeContext, url: URL, slug: string, file: string): boolean {
  const sha = partSha(file);
  if (!ctx.token || !isSha256(sha)) return false;
  const { searchParams: q } = url;
  return partSignatureValid(ctx.token, slug, sha, q.get("exp"), q.get("sig"), ctx.now() / 1000);
}

/** `GET /parts/{slug}/{file}`. */
export async function getPart(ctx: NodeContext, req: Request, slug: string, file: string): Promise<Response> {
  const sha = partSha(file);
  if (!isSha256(sha)) throw new NodeError("not-found", `no part ${file} on this node`);
  if (ctx.token && !hasToken(req, ctx.token) && !partUrlSigned(ctx, new URL(req.url), slug, file)) {
    throw new NodeError("forbidden", "part URL signature is missing, wrong or expired — ask for the manifest again");
  }
  // A part in an object store is fetched from the bucket, by a pre-signed URL: its bytes do not pass through here.
  const direct = ctx.store.partUrl(slug, sha, PART_URL_LIFETIME_S);
  if (direct !== null) return new Response(null, { status: 302, headers: { location: direct, "x-svc-node": "1" } });
  const opened = await openRegularFile(ctx.store.partPath(slug, sha), ctx.store.root);
  if (!opened) throw new NodeError("not-found", `no part ${sha} of ${slug} on this node`);
  const { handle, size } = opened;
  const etag = `"${sha}"`;
  const headers: Record<string, string> = {
    "content-type": PARQUET_TYPE,
    "cache-control": `${ctx.token ? "private" : "public"}, max-age=31536000, immutable`,
    "x-svc-node": "1",
  };
  if (matchesEtag(req.headers.get("if-none-match"), etag)) {
    await handle.close();
    return new Response(null, { status: 304, headers: { ...headers, etag, "accept-ranges": "bytes" } });
  }
  return await rangedFile(req, handle, size, headers, etag);
}
