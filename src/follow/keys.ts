/**
 * Keeping pinned keys current while following with verify: each round reads
 * the origin's keys document and applies it as `svc trust add` does (revoked
 * keys and what they endorsed are dropped; new keys only through an
 * endorsement by a pinned, unrevoked key). An origin never pinned is left
 * alone: first contact stays the operator's `svc trust add`.
 *
 * @module
 */
import { callJson } from "../client/mod.ts";
import type { TrustOptions } from "../local/mod.ts";
import { type KeysDocument, pinKeys, readTrustFile, writeTrustFile } from "../trust/mod.ts";

/**
 * Applies the origin's current keys document to the trust file; returns what
 * changed, for the log (nothing when the origin cannot be reached).
 *
 * @example
 * ```ts
 * import { refreshPinnedKeys } from "./keys.ts";
 * const note = await refreshPinnedKeys({ trustFile: "trust.json", origin: "https://origin.example", required: true });
 * ```
 */
export async function refreshPinnedKeys(trust: TrustOptions): Promise<string | null> {
  const file = await readTrustFile(trust.trustFile);
  if ((file.origins[trust.origin] ?? []).length === 0) return null;
  let doc: KeysDocument;
  try {
    const answer = await callJson(
      { baseUrl: trust.origin, apiKey: null, retries: 0, timeoutMs: 15_000 },
      "GET",
      "/.well-known/svc-keys",
      null,
      {},
      { exactIntegers: true },
    );
    doc = answer.body as KeysDocument;
  } catch {
    return null;
  }
  const result = await pinKeys(file, trust.origin, doc, { now: new Date().toISOString() });
  if (result.added.length === 0 && result.revoked.length === 0) return null;
  await writeTrustFile(trust.trustFile, file);
  const parts = [];
  if (result.added.length) parts.push(`pinned ${result.added.join(", ")}`);
  if (result.revoked.length) parts.push(`revoked ${result.revoked.join(", ")}`);
  return `keys of ${trust.origin}: ${parts.join("; ")}`;
}
