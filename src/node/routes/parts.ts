/**
 * `GET /parts/{slug}/{sha256}.parquet`: one part, streamed, with a strong
 * ETag (its digest), immutable caching and single byte ranges.
 *
 * @module
 */
import { isSha256 } from "../../wire/slug.ts";
import type { NodeContext } from "../context.ts";
import { fileBody, openRegularFile } from "../file_body.ts";
import { hasToken } from "../guards/token.ts";
import { partSignatureValid } from "../part_url.ts";
import { HttpError } from "../response.ts";

/** The media type of Parquet files. */
export const PARQUET_TYPE = "application/vnd.apache.parquet";

/** A single byte range `[start, end]` or why none applies. */
type Range = { start: number; end: number } | "full" | "unsatisfiable";

/** Parses one `Range: bytes=...` value against a file of `size` bytes. */
export function parseRange(header: string | null, size: number): Range {
  if (header === null) return "full";
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "full";
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < start) return "full";
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

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
  if (!isSha256(sha)) throw new HttpError(404, `no part ${file} on this node`);
  if (ctx.token && !hasToken(req, ctx.token) && !partUrlSigned(ctx, new URL(req.url), slug, file)) {
    throw new HttpError(403, "part URL signature is missing, wrong or expired — ask for the manifest again");
  }
  const opened = await openRegularFile(ctx.store.partPath(slug, sha));
  if (!opened) throw new HttpError(404, `no part ${sha} of ${slug} on this node`);
  const { handle, size } = opened;
  const etag = `"${sha}"`;
  const headers: Record<string, string> = {
    "content-type": PARQUET_TYPE,
    "etag": etag,
    "cache-control": `${ctx.token ? "private" : "public"}, max-age=31536000, immutable`,
    "accept-ranges": "bytes",
    "x-svc-node": "1",
  };
  const bare = async (status: number, extra: Record<string, string> = {}) => {
    await handle.close();
    return new Response(null, { status, headers: { ...headers, ...extra } });
  };
  if (matchesEtag(req.headers.get("if-none-match"), sha)) return await bare(304);
  const ifRange = req.headers.get("if-range");
  const range = ifRange === null || ifRange === etag ? parseRange(req.headers.get("range"), size) : "full";
  if (range === "unsatisfiable") return await bare(416, { "content-range": `bytes */${size}` });
  const { start, end } = range === "full" ? { start: 0, end: size - 1 } : range;
  headers["content-length"] = String(end - start + 1);
  const status = range === "full" ? 200 : 206;
  if (status === 206) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  if (req.method === "HEAD" || size === 0) return await bare(status);
  return new Response(fileBody(handle, start, end), { status, headers });
}

function matchesEtag(header: string | null, sha: string): boolean {
  if (header === null) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === `"${sha}"`;
  });
}
