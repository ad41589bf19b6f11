/**
 * What a pull asks the source for, so that it costs no egress it can spare
 * (origin-wire 2.6, "Pull algorithm"; 9, "Following and exports"): nothing
 * at all when the version wanted is whole on disk (its signature checked
 * offline), else one manifest naming in `have` the parts already held (at
 * most 100, the origin's limit: those of the version wanted first, as the
 * project detail lists them, then those of the newest version held, then
 * the newest part files), which come back without URLs and are not counted.
 *
 * One request, not one per hundred held parts: a part not named in a
 * request's `have` gets a URL, and is counted, in every request that does
 * not name it, so a second request with the next hundred would cost more.
 *
 * @module
 */
import { MAX_HAVE } from "../client/mod.ts";
import { type CopyTarget, publishManifest, type StoredVersion } from "../store/mod.ts";
import type { ProjectDetail } from "../wire/mod.ts";
import { checkVersion, takeVersion } from "./version_trust.ts";
import type { PullOptions, PullResult } from "./types.ts";

/**
 * The parts of `version` as the project detail lists them (the origin and a
 * node give each listed version's manifest, parts without URLs); empty when
 * it lists no such version.
 */
export function listedParts(detail: ProjectDetail | null, version: number | undefined): string[] {
  const listed = detail?.versions?.find((v) => v?.version === version)?.manifest?.parts;
  if (!Array.isArray(listed)) return [];
  return listed.map((p) => (p as { sha256?: unknown } | null)?.sha256).filter((s): s is string =>
    typeof s === "string" && /^[0-9a-f]{64}$/.test(s)
  );
}

/**
 * Digests of part files `target` holds for `slug`, at most
 * {@linkcode MAX_HAVE}: those in `first` (the version wanted), then those of
 * the newest whole version held, then the others, newest files first.
 */
export async function heldParts(target: CopyTarget, slug: string, first: readonly string[]): Promise<string[]> {
  const held = await target.heldParts(slug);
  const chosen = new Set<string>();
  const add = (shas: Iterable<string>) => {
    for (const sha of shas) {
      if (chosen.size >= MAX_HAVE) return;
      if (held.has(sha)) chosen.add(sha);
    }
  };
  add(first);
  if (chosen.size < MAX_HAVE) add(((await target.store.latest(slug))?.parts ?? []).map((p) => p.sha256));
  if (chosen.size < MAX_HAVE && chosen.size < held.size) {
    const rest = [...held.keys()].filter((sha) => !chosen.has(sha));
    const stamped = await Promise.all(rest.map(async (sha) => ({
      sha,
      at: held.get(sha) ?? await target.partAge(slug, sha) ?? 0,
    })));
    add(stamped.sort((a, b) => b.at - a.at).map((s) => s.sha));
  }
  return [...chosen];
}

/**
 * Version `version` of `slug` when the store holds it whole and its copy
 * passes the signature check offline (as the pull's trust options ask), as
 * a pull that fetched nothing; else null, and the source is asked: it may
 * hold a signature this copy lacks, or say why not.
 */
export async function heldWhole(
  target: CopyTarget,
  slug: string,
  version: number,
  options: PullOptions,
): Promise<PullResult | null> {
  const stored: StoredVersion | null = await target.store.version(slug, version);
  if (!stored) return null;
  const { signature: signed, totals } = stored.manifest;
  let signature: PullResult["signature"] = null;
  if (options.trust) {
    try {
      signature = (await checkVersion({
        target,
        slug,
        asked: options.version ?? null,
        manifest: await publishManifest(stored, { partUrl: null, sources: true }) as Record<string, unknown>,
        parts: stored.parts.map((p) => p.sha256),
      }, options.trust)).status;
    } catch {
      return null;
    }
    const origin = stored.manifest.origin;
    if (signature === "verified" && origin?.kind === "copy" && !origin.verified) {
      // Its signature verifies now (keys were pinned since it was taken): the held copy says so from now on.
      const verified = { ...stored.manifest, origin: { ...origin, verified: true } };
      await target.locked(slug, () => takeVersion(target, verified, { verified: true, required: false }));
    }
  }
  return {
    slug,
    version,
    records: totals.records ?? stored.parts.reduce((a, p) => a + (p.records ?? 0), 0),
    parts: stored.parts.length,
    downloaded: 0,
    bytes: 0,
    signedBy: typeof signed?.origin === "string" ? signed.origin : null,
    signature,
  };
}
