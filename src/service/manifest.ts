/**
 * A version's published manifest with part URLs on this node, as `GET
 * /projects/{slug}/manifest` and MCP's `dataset_manifest` give it: at the
 * address the client used, signed for an hour on a node with a token, and
 * without URLs for parts the client says it holds. A local version's parts
 * list the sources of every contribution they hold, so its manifest grows
 * with them: it is read from the provenance log and written out as it is
 * read ({@linkcode manifestText}), never held whole.
 *
 * @module
 */
import { manifestChunks, type PublishedVersion, type PublishOptions } from "../store/mod.ts";
import { signPartQuery } from "./part_url.ts";
import type { NodeState } from "./state.ts";
import { requireVersion } from "./versions.ts";

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

/** The manifest to publish: the version, and how. */
export interface VersionManifest {
  /** The version. */
  stored: PublishedVersion;
  /** Part URLs and sources. */
  options: PublishOptions;
}

/**
 * The manifest of `slug` that `request` names (404 when the node does not
 * hold it whole): write it with {@linkcode manifestText}.
 */
export async function versionManifest(
  state: Pick<NodeState, "store" | "token" | "now">,
  slug: string,
  request: ManifestRequest,
): Promise<VersionManifest> {
  const stored = await requireVersion(state, slug, request.version);
  const base = `${request.origin}/parts/${slug}/`;
  const now = state.now() / 1000;
  const token = state.token;
  const expires = token && stored.parts.some((p) => !request.have?.has(p.sha256))
    ? signPartQuery(token, slug, "0".repeat(64), now).exp
    : null;
  const partUrl = (sha: string) => {
    if (request.have?.has(sha)) return null;
    return token ? `${base}${sha}.parquet${signPartQuery(token, slug, sha, now).query}` : `${base}${sha}.parquet`;
  };
  return {
    stored,
    options: { partUrl, sources: true, trailing: expires === null ? {} : { urlExpiresAt: isoSeconds(expires) } },
  };
}

/**
 * The JSON text of `manifest`, in pieces as it is read.
 *
 * @example
 * ```ts ignore
 * import { manifestText, versionManifest } from "./manifest.ts";
 * declare const state: Parameters<typeof versionManifest>[0];
 * let text = "";
 * for await (const piece of manifestText(await versionManifest(state, "notes", { version: null, origin: "" }))) {
 *   text += piece;
 * }
 * ```
 */
export function manifestText(manifest: VersionManifest): AsyncGenerator<string> {
  return manifestChunks(manifest.stored, manifest.options);
}
