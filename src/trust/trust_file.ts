/**
 * The trust file: the signing keys pinned per origin
 * (`{"origins": {"<origin>": [key, ...]}}`), at `SVC_TRUST_FILE`, else
 * `$XDG_CONFIG_HOME/svc/trust.json`, else `~/.config/svc/trust.json`,
 * written atomically. Pinning follows the keys document
 * (`/.well-known/svc-keys`): first contact pins every key not revoked; later,
 * new keys only through an endorsement by a pinned, unrevoked key; revoked
 * keys are marked, and so, transitively, are the keys they endorsed.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../store/mod.ts";
import { fromBase64, keyId, verifyEd25519 } from "./ed25519.ts";
import { endorsementStatement } from "./statement.ts";
import type { PinnedKey } from "./verify.ts";

/** A key as the trust file keeps it. */
export interface TrustedKey extends PinnedKey {
  /** When it was pinned. */
  addedAt: string;
  /** Pinned by hand (`--force`) although no endorsement led to it. */
  forced?: boolean;
  /** When it was found revoked. */
  revokedAt?: string;
}

/** The trust file's content. */
export interface TrustFile {
  /** Pinned keys by origin. */
  origins: Record<string, TrustedKey[]>;
}

/** An origin's keys document. */
export interface KeysDocument {
  /** The origin it speaks for. */
  origin: string;
  /** Its keys. */
  keys: { kid: string; alg: string; publicKey: string; status: string }[];
  /** Old keys' endorsements of newer ones. */
  endorsements?: { kid: string; by: string; sig: string }[];
}

/** What one `trust add` changed. */
export interface PinResult {
  /** Keys pinned now. */
  added: string[];
  /** Keys now marked revoked (directly or through what endorsed them). */
  revoked: string[];
  /** Keys refused, with why (pinned anyway when forced). */
  refused: { kid: string; reason: string }[];
}

/**
 * The trust file's path for `env`.
 *
 * @example
 * ```ts
 * import { trustFilePath } from "./trust_file.ts";
 * trustFilePath({ SVC_TRUST_FILE: "/data/trust.json" }); // "/data/trust.json"
 * ```
 */
export function trustFilePath(env: Record<string, string | undefined>): string {
  if (env.SVC_TRUST_FILE) return env.SVC_TRUST_FILE;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "svc", "trust.json");
}

/**
 * Reads the trust file (empty when absent).
 *
 * @example
 * ```ts
 * import { readTrustFile } from "./trust_file.ts";
 * const trust = await readTrustFile("/data/trust.json");
 * ```
 */
export async function readTrustFile(path: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return { origins: {} };
    throw e;
  }
  const parsed = JSON.parse(text);
  if (!parsed || typeof parsed.origins !== "object") throw new Error(`${path} is not a trust file`);
  return parsed;
}

/**
 * Writes the trust file atomically.
 */
export async function writeTrustFile(path: string, trust: TrustFile): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(trust, null, 2) + "\n");
}

function revokeWithDescendants(keys: TrustedKey[], kid: string, at: string, out: string[]): void {
  for (const key of keys) {
    if (key.kid === kid && !key.revoked) {
      key.revoked = true;
      key.status = "revoked";
      key.revokedAt = at;
      out.push(kid);
    }
  }
  for (const key of keys) if (key.endorsedBy === kid && !key.revoked) revokeWithDescendants(keys, key.kid, at, out);
}

/**
 * Applies `doc` (fetched from `origin`) to `trust`, in place; `force` pins
 * refused keys too (marked `forced`). Throws when the document names another
 * origin.
 */
export async function pinKeys(
  trust: TrustFile,
  origin: string,
  doc: KeysDocument,
  options: { force?: boolean; now: string },
): Promise<PinResult> {
  if (doc.origin !== origin) {
    throw new Error(`the keys document speaks for ${JSON.stringify(doc.origin)}, not ${origin}`);
  }
  const pinned = trust.origins[origin] ?? [];
  const first = pinned.length === 0;
  const result: PinResult = { added: [], revoked: [], refused: [] };
  for (const key of doc.keys ?? []) {
    if (key.status === "revoked") revokeWithDescendants(pinned, key.kid, options.now, result.revoked);
  }
  for (const key of doc.keys ?? []) {
    if (key.status === "revoked") continue;
    const held = pinned.find((k) => k.kid === key.kid);
    if (held) {
      if (!held.revoked && key.status === "retired") held.status = "retired";
      continue;
    }
    const raw = fromBase64(key.publicKey);
    let reason: string | null = null;
    let endorsedBy: string | undefined;
    if (key.alg !== "Ed25519") reason = `algorithm ${key.alg} is not Ed25519`;
    else if (!raw || raw.length !== 32 || keyId(raw) !== key.kid) reason = "the key does not match its id";
    else if (!first) {
      reason = "no pinned, unrevoked key endorses it";
      for (const e of (doc.endorsements ?? []).filter((e) => e.kid === key.kid)) {
        const by = pinned.find((k) => k.kid === e.by && !k.revoked);
        const byRaw = by ? fromBase64(by.publicKey) : null;
        const sig = fromBase64(e.sig);
        const statement = endorsementStatement(origin, { alg: "Ed25519", kid: key.kid, publicKey: key.publicKey });
        if (byRaw && sig && await verifyEd25519(byRaw, sig, statement)) {
          reason = null;
          endorsedBy = e.by;
          break;
        }
      }
    }
    if (reason !== null) {
      result.refused.push({ kid: key.kid, reason });
      if (!options.force || !raw || raw.length !== 32) continue;
    }
    pinned.push({
      kid: key.kid,
      alg: "Ed25519",
      publicKey: key.publicKey,
      status: key.status === "retired" ? "retired" : "current",
      addedAt: options.now,
      ...(endorsedBy ? { endorsedBy } : {}),
      ...(reason !== null ? { forced: true } : {}),
    });
    result.added.push(key.kid);
  }
  trust.origins[origin] = pinned;
  return result;
}
