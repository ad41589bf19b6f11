/**
 * `GET /projects/{slug}/manifest`: the published manifest with part URLs on
 * this node, at the address the client used.
 *
 * @module
 */
import { publishManifest } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { signPartQuery } from "../part_url.ts";
import { HttpError, json } from "../response.ts";
import { intParam } from "./_params.ts";
import { requireVersion } from "./_version.ts";

/** An ISO 8601 time in the origin's form, `2026-11-22T04:00:00+00:00`. */
function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** Most digests `?have=` may list. */
export const MAX_HAVE = 100;

/** The part digests of `?have=<sha,...>`: parts the client already holds, whose URLs it does not need. */
function haveParam(url: URL): Set<string> {
  const raw = url.searchParams.get("have");
  if (raw === null || raw === "") return new Set();
  const listed = raw.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  if (listed.length > MAX_HAVE || !listed.every((s) => /^[0-9a-f]{64}$/.test(s))) {
    throw new HttpError(400, `querystring/have must list up to ${MAX_HAVE} part SHA-256 digests, comma-separated`);
  }
  return new Set(listed);
}

/**
 * `GET /projects/{slug}/manifest?version&have`, part URLs under `origin` (see
 * `publicOrigin`); parts listed in `have` come without one.
 */
export async function getManifest(ctx: NodeContext, slug: string, url: URL, origin: string): Promise<Response> {
  const wanted = intParam(url, "version", { min: 1, fallback: null });
  const have = haveParam(url);
  const version = await requireVersion(ctx, slug, wanted);
  const base = `${origin}/parts/${slug}/`;
  const now = ctx.now() / 1000;
  let expires: number | null = null;
  const manifest = publishManifest(version.manifest, slug, version.version, (sha) => {
    if (!ctx.token) return `${base}${sha}.parquet`;
    const signed = signPartQuery(ctx.token, slug, sha, now);
    expires = signed.exp;
    return `${base}${sha}.parquet${signed.query}`;
  });
  for (const part of manifest.parts) if (have.has(part.sha256)) delete part.url;
  delete manifest.urlExpiresAt;
  if (expires !== null) manifest.urlExpiresAt = isoSeconds(expires);
  return json(manifest);
}
