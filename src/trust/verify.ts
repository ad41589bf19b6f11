/**
 * Verifying a manifest's signature against an origin's pinned keys:
 * `verified`, `unsigned` or `untrusted` (with the reason). A signature by a
 * key not yet pinned is accepted only through a chain of endorsements that
 * starts at a pinned, unrevoked key; the keys that chain introduces are
 * returned to be pinned, and only when the signature itself verifies.
 * Always refused: a revoked key, an unknown key with no chain, another
 * algorithm, a bad signature, malformed base64, keys or signatures of the
 * wrong length, another origin.
 *
 * @module
 */
import { fromBase64, keyId, verifyEd25519 } from "./ed25519.ts";
import { endorsementStatement, manifestStatement } from "./statement.ts";

import type { SignatureStatus } from "../wire/mod.ts";
export type { SignatureStatus } from "../wire/mod.ts";

/** A pinned key, as the trust file keeps it. */
export interface PinnedKey {
  /** Key id. */
  kid: string;
  /** Always `Ed25519`. */
  alg: string;
  /** Raw key, standard base64. */
  publicKey: string;
  /** `current`, `retired` or `revoked`. */
  status: string;
  /** Set when the key was revoked. */
  revoked?: boolean;
  /** The key that endorsed this one, when it was learned from a chain. */
  endorsedBy?: string;
}

/** An endorsement in a signature's chain. */
export interface ChainLink {
  /** The endorsed key's id. */
  kid: string;
  /** Its algorithm. */
  alg: string;
  /** Its raw key, standard base64. */
  publicKey: string;
  /** The endorsing key's id. */
  by: string;
  /** The endorsing key's signature over the endorsement statement, base64. */
  sig: string;
}

/** What a check found. */
export interface Verdict {
  /** `verified`, `unsigned` or `untrusted`. */
  status: SignatureStatus;
  /** Why, when not verified. */
  reason: string | null;
  /** Keys the chain introduced, to pin now that the signature verified. */
  learned: PinnedKey[];
}

const untrusted = (reason: string): Verdict => ({ status: "untrusted", reason, learned: [] });

function usable(key: PinnedKey | undefined): key is PinnedKey {
  return key !== undefined && key.revoked !== true && key.status !== "revoked";
}

/**
 * Checks `manifest`'s signature for `origin` against `pinned` keys.
 * `manifest` must be read with `parseDocumentJson` (`src/wire/exact_json.ts`),
 * never `JSON.parse`, or an integer beyond 2^53 is rounded and the signature
 * fails.
 */
export async function verifyManifest(
  manifest: Record<string, unknown>,
  origin: string,
  pinned: readonly PinnedKey[],
): Promise<Verdict> {
  const signature = manifest.signature as Record<string, unknown> | undefined;
  if (signature === undefined || signature === null) return { status: "unsigned", reason: "no signature", learned: [] };
  if (typeof signature !== "object") return untrusted("the signature is not an object");
  if (signature.origin !== origin) return untrusted(`signed by ${JSON.stringify(signature.origin)}, not ${origin}`);
  if (signature.alg !== "Ed25519") {
    return untrusted(`signature algorithm ${JSON.stringify(signature.alg)} is not Ed25519`);
  }
  const byKid = new Map(pinned.map((k) => [k.kid, k]));
  const kid = String(signature.kid);
  const sig = fromBase64(String(signature.sig));
  if (!sig || sig.length !== 64) return untrusted("the signature is not 64 bytes of base64");
  const known = byKid.get(kid);
  if (known && !usable(known)) return untrusted(`key ${kid} is revoked`);

  let signer: Uint8Array | null = null;
  const learned: PinnedKey[] = [];
  if (known) {
    signer = fromBase64(known.publicKey);
  } else {
    const chain = Array.isArray(signature.chain) ? signature.chain as ChainLink[] : [];
    if (chain.length === 0) return untrusted(`key ${kid} is not pinned and no endorsement leads to it`);
    let endorser = byKid.get(chain[0]?.by);
    if (!usable(endorser)) {
      return untrusted(`the chain starts at key ${chain[0]?.by}, which is not pinned or is revoked`);
    }
    let endorserKey = fromBase64(endorser.publicKey);
    for (const [i, link] of chain.entries()) {
      if (i > 0 && link.by !== chain[i - 1].kid) return untrusted("the chain has a gap");
      const revoked = byKid.get(link.kid);
      if (revoked && !usable(revoked)) return untrusted(`key ${link.kid} in the chain is revoked`);
      if (link.alg !== "Ed25519") return untrusted(`key ${link.kid} is not Ed25519`);
      const raw = fromBase64(link.publicKey);
      const linkSig = fromBase64(link.sig);
      if (!raw || raw.length !== 32 || keyId(raw) !== link.kid) {
        return untrusted(`key ${link.kid} does not match its id`);
      }
      if (!linkSig || !endorserKey) return untrusted(`the endorsement of ${link.kid} is malformed`);
      const statement = endorsementStatement(origin, { alg: link.alg, kid: link.kid, publicKey: link.publicKey });
      if (!(await verifyEd25519(endorserKey, linkSig, statement))) {
        return untrusted(`the endorsement of ${link.kid} by ${link.by} does not verify`);
      }
      learned.push({
        kid: link.kid,
        alg: "Ed25519",
        publicKey: link.publicKey,
        status: "current",
        endorsedBy: link.by,
      });
      endorser = learned[learned.length - 1];
      endorserKey = raw;
    }
    if (chain[chain.length - 1].kid !== kid) {
      return untrusted(`the chain ends at ${chain[chain.length - 1].kid}, not ${kid}`);
    }
    signer = endorserKey;
  }
  if (!signer || signer.length !== 32) return untrusted(`key ${kid} is malformed`);
  if (!(await verifyEd25519(signer, sig, manifestStatement(origin, manifest)))) {
    return untrusted("the signature does not verify");
  }
  return { status: "verified", reason: null, learned };
}
