/**
 * A version already whole in a store, told as a pull that fetched nothing:
 * what a pull pinned to a version it holds answers without asking anyone
 * (a paid pull does not buy it again).
 *
 * @module
 */
import { copyTarget } from "../store/mod.ts";
import { SignatureError } from "../client/mod.ts";
import type { PullResult } from "./types.ts";

/**
 * Version `version` of `slug` when the store at `store` holds it whole, as
 * a pull that fetched nothing; null when it does not. With `trustRequired`,
 * a version held unverified is refused.
 *
 * @example
 * ```ts
 * import { heldWhole } from "./held.ts";
 * await heldWhole(await Deno.makeTempDir(), "cities", 1, false); // null
 * ```
 */
export async function heldWhole(
  store: string,
  slug: string,
  version: number,
  trustRequired: boolean,
): Promise<PullResult | null> {
  const stored = await copyTarget(store).store.version(slug, version);
  if (!stored) return null;
  const { signature, origin, totals } = stored.manifest;
  const signedBy = typeof signature?.origin === "string" ? signature.origin : null;
  const verified = origin?.kind === "copy" && origin.verified;
  if (trustRequired && !verified) {
    throw new SignatureError(`${slug} v${version} is held unverified; it is not bought again`, 0, "signature");
  }
  return {
    slug,
    version: stored.version,
    records: totals.records ?? stored.parts.reduce((a, p) => a + (p.records ?? 0), 0),
    parts: stored.parts.length,
    downloaded: 0,
    bytes: 0,
    signedBy,
    signature: verified ? "verified" : signedBy ? "untrusted" : "unsigned",
  };
}
