/**
 * The one signature check of pull, load and follow: is this manifest the
 * requested version, signed by a key pinned for the origin (or by a key a
 * pinned key endorsed), and may the store take it?
 *
 * Always refused: a manifest for another project or version, a version held
 * already with other parts, and, once keys are pinned for the origin, a
 * signature that fails them (revoked or unknown key, wrong algorithm, bad
 * bytes). With `required` (verify), `unsigned` and `untrusted` are refused
 * too, and so is a newest version below the newest one held. Keys learned
 * from a chain are pinned only after the signature verified.
 *
 * @module
 */
import { type CopyTarget, parseVersion, type Version } from "../store/mod.ts";
import { readTrustFile, type Verdict, verifyManifest, writeTrustFile } from "../trust/mod.ts";
import { BundleError, SignatureError } from "../client/mod.ts";
import type { TrustOptions } from "./types.ts";
export type { TrustOptions } from "./types.ts";

/** What is being taken, and into which store. */
export interface Candidate {
  /** The store it goes to. */
  target: CopyTarget;
  /** The project asked for. */
  slug: string;
  /** The version asked for, or null for the newest. */
  asked: number | null;
  /** The manifest as it arrived (signature included). */
  manifest: Record<string, unknown>;
  /** Its parts' SHA-256, in order. */
  parts: readonly string[];
  /** Check only: pin nothing. */
  dryRun?: boolean;
}

function refuse(message: string, code = "signature", signature: string | null = null): never {
  throw new SignatureError(message, 0, code, signature ? { signature } : null);
}

/**
 * Checks `candidate` against the keys pinned for `trust.origin` and the
 * versions the store holds; pins chain-learned keys once verified.
 */
export async function checkVersion(candidate: Candidate, trust: TrustOptions): Promise<Verdict> {
  const { target, slug, asked, manifest, parts } = candidate;
  const version = manifest.version as number;
  if (manifest.project !== slug || (asked !== null && version !== asked)) {
    throw new BundleError(
      `the manifest is for ${String(manifest.project)} v${String(version)}, not ${slug}${asked ? ` v${asked}` : ""}`,
      0,
      "manifest",
      null,
    );
  }
  const store = target.store;
  const same = await store.version(slug, version);
  if (same && same.parts.map((p) => p.sha256).join() !== parts.join()) {
    refuse(`${slug} v${version} has other parts than the copy held; refused`, "rollback");
  }
  const file = await readTrustFile(trust.trustFile);
  const pinned = file.origins[trust.origin] ?? [];
  const verdict = await verifyManifest(manifest, trust.origin, pinned);
  if (verdict.status !== "verified" && (trust.required || (verdict.status === "untrusted" && pinned.length > 0))) {
    refuse(`${slug} v${version} is ${verdict.status}: ${verdict.reason}`, "signature", verdict.status);
  }
  if (trust.required && asked === null) {
    const newest = await store.latest(slug);
    if (newest && newest.version > version) {
      refuse(`${slug} v${version} is below v${newest.version}, held already`, "rollback");
    }
  }
  if (verdict.status === "verified" && verdict.learned.length > 0 && !candidate.dryRun) {
    const now = new Date().toISOString();
    const keys = file.origins[trust.origin] ?? [];
    for (const key of verdict.learned) if (!keys.some((k) => k.kid === key.kid)) keys.push({ ...key, addedAt: now });
    file.origins[trust.origin] = keys;
    await writeTrustFile(trust.trustFile, file);
  }
  return verdict;
}

/**
 * Commits the copy `version`, or, when the store holds that version already
 * (with the same parts, checked before): gives the held copy the signature
 * that now verified, or, under `required`, refuses a held copy that was taken
 * unsigned. Call it under the project's lock.
 */
export async function takeVersion(
  target: CopyTarget,
  version: Version,
  trust: { verified: boolean; required: boolean },
): Promise<void> {
  const { project: slug, version: n } = version;
  const text = await target.manifestText(slug, n);
  if (text === null) return await target.commit(version);
  const held = parseVersion(text, slug, n);
  if (!("reason" in held) && held.origin?.kind === "copy" && held.origin.verified) return;
  if (trust.verified && version.origin?.kind === "copy") {
    // Same parts, now covered by a signature that verified: the held copy takes it.
    const verified: Version = { ...version, origin: { ...version.origin, verified: true } };
    await target.rewrite(verified);
  } else if (trust.required) {
    refuse(
      `${slug} v${n} is held as an unsigned copy, which a verified pull does not take`,
      "signature",
      "unsigned",
    );
  }
}
