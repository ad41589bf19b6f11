/**
 * A version's published manifest with part URLs on this node, as `GET
 * /projects/{slug}/manifest` and MCP's `dataset_manifest` give it: at the
 * address the client used, signed for an hour on a node with a token, and
 * without URLs for parts the client says it holds.
 *
 * @module
 */
import { publishManifest } from "../store/mod.ts";
import type { Manifest } from "../wire/mod.ts";
import { signPartQuery } from "./part_url.ts";
import type { NodeState } from "./state.ts";
import { withVersion } from "./versions.ts";

/** An ISO 8601 time in the origin's form, `2026-11-22T04:00:00+00:00`. */
function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** Which manifest, and where its part URLs point. */
export interface ManifestRequest {
  /** The version; the newest whole one when null. */
  version: number | null;
  /** The node's origin as the client reached it (`http://127.0.0.1:8686`). */
  origin: string;
  /** Digests of parts the client holds already, which get no URL. */
  have?: ReadonlySet<string>;
}

/**
 * The manifest of `slug` that `request` names.
 */
export async function versionManifest(
  state: Pick<NodeState, "store" | "token" | "now">,
  slug: string,
  request: ManifestRequest,
): Promise<Manifest> {
  return await withVersion(state, slug, request.version, (version) => {
    const base = `${request.origin}/parts/${slug}/`;
    const now = state.now() / 1000;
    let expires: number | null = null;
    const manifest = publishManifest(version.manifest, slug, version.version, (sha) => {
      if (!state.token) return `${base}${sha}.parquet`;
      const signed = signPartQuery(state.token, slug, sha, now);
      expires = signed.exp;
      return `${base}${sha}.parquet${signed.query}`;
    });
    for (const part of manifest.parts) if (request.have?.has(part.sha256)) delete part.url;
    delete manifest.urlExpiresAt;
    if (expires !== null) manifest.urlExpiresAt = isoSeconds(expires);
    return Promise.resolve(manifest);
  });
}
