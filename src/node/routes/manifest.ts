/**
 * `GET /projects/{slug}/manifest`: the published manifest with part URLs on
 * this node, at the address the client used (see `versionManifest`).
 *
 * @module
 */
import { manifestText, versionManifest } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonPieces } from "../response.ts";
import { NodeError } from "../../errors/mod.ts";
import { intParam } from "./_params.ts";
import { WIRE_LIMITS } from "../../wire/mod.ts";

/** Most digests `?have=` may list. */
export const MAX_HAVE: number = WIRE_LIMITS.have;

/** The part digests of `?have=<sha,...>`: parts the client already holds, whose URLs it does not need. */
function haveParam(url: URL): Set<string> {
  const raw = url.searchParams.get("have");
  if (raw === null || raw === "") return new Set();
  const listed = raw.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  if (listed.length > MAX_HAVE || !listed.every((s) => /^[0-9a-f]{64}$/.test(s))) {
    throw new NodeError(
      "bad-request",
      `querystring/have must list up to ${MAX_HAVE} part SHA-256 digests, comma-separated`,
    );
  }
  return new Set(listed);
}

/**
 * `GET /projects/{slug}/manifest?version&have`, part URLs under `origin` (see
 * `publicOrigin`); parts listed in `have` come without one.
 */
export async function getManifest(ctx: NodeContext, slug: string, url: URL, origin: string): Promise<Response> {
  const version = intParam(url, "version", { min: 1, fallback: null });
  const have = haveParam(url);
  return await jsonPieces(manifestText(await versionManifest(ctx, slug, { version, origin, have })));
}
