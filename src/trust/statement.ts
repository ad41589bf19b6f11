/**
 * The bytes the origin signs: the UTF-8 of
 * `stableStringify({"v": 1, "origin": <origin>, "manifest": <content>})`,
 * where the content is the published manifest without `signature`,
 * `urlExpiresAt`, `paid`, `verified`, the local bookkeeping keys, and every
 * part's `url`; and, for key rotation, the old key's endorsement of a new one.
 *
 * Numbers are written as the origin writes them: an integer the manifest holds
 * as a `bigint` (beyond 2^53) as its exact digits, every other number as
 * JavaScript's `JSON.stringify` writes it (`1e16` as `10000000000000000`,
 * `-0.0` as `0`, `1.5e-07` as `1.5e-7`, `1e21` as `1e+21`). So the manifest
 * must be read with `parseDocumentJson` (`src/wire/exact_json.ts`): `JSON.parse`
 * rounds `9007199254740993` to `9007199254740992` before the bytes are rebuilt,
 * and the signature over the origin's digits no longer verifies.
 *
 * @module
 */
import { BOOKKEEPING_KEYS } from "../store/mod.ts";
import { stableStringify } from "../wire/mod.ts";

const UNSIGNED_KEYS = new Set(["signature", "urlExpiresAt", "paid", "verified", ...BOOKKEEPING_KEYS]);

/**
 * The signed content of a published manifest.
 *
 * @example
 * ```ts
 * import { signedContent } from "./statement.ts";
 * signedContent({ project: "cities", parts: [{ sha256: "ab", bytes: 1, url: "http://x" }], signature: {} });
 * // { project: "cities", parts: [{ sha256: "ab", bytes: 1 }] }
 * ```
 */
export function signedContent(manifest: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (UNSIGNED_KEYS.has(key)) continue;
    out[key] = key === "parts" && Array.isArray(value)
      ? value.map((p) => {
        if (!p || typeof p !== "object") return p;
        const { url: _url, ...part } = p as Record<string, unknown>;
        return part;
      })
      : value;
  }
  return out;
}

/**
 * The bytes a manifest signature covers. `manifest` as `parseDocumentJson` reads
 * it: integers beyond 2^53 as `bigint`.
 *
 * @example
 * ```ts
 * import { manifestStatement } from "./statement.ts";
 * new TextDecoder().decode(manifestStatement("https://origin.example", { version: 1, max: 2n ** 63n - 1n }));
 * // '{"manifest":{"max":9223372036854775807,"version":1},"origin":"https://origin.example","v":1}'
 * ```
 */
export function manifestStatement(origin: string, manifest: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(stableStringify({ v: 1, origin, manifest: signedContent(manifest) }));
}

/** A public key as keys documents and endorsements name it. */
export interface KeyRef {
  /** Always `Ed25519`. */
  alg: string;
  /** First 16 hex digits of the SHA-256 of the raw key. */
  kid: string;
  /** The raw 32-byte key, standard base64 with padding. */
  publicKey: string;
}

/**
 * The bytes an old key signs to endorse a new one.
 *
 * @example
 * ```ts
 * import { endorsementStatement } from "./statement.ts";
 * endorsementStatement("https://origin.example", { alg: "Ed25519", kid: "0123456789abcdef", publicKey: "AAAA" }).length > 0;
 * ```
 */
export function endorsementStatement(origin: string, key: KeyRef): Uint8Array {
  return new TextEncoder().encode(
    stableStringify({
      v: 1,
      type: "svc-key-endorsement",
      origin,
      key: { alg: key.alg, kid: key.kid, publicKey: key.publicKey },
    }),
  );
}
