/**
 * Signed part URLs: with a node token, manifest part URLs carry `exp` (unix
 * seconds) and `sig` = hex HMAC-SHA256, keyed with the token, over
 * `"<slug>/<sha256>/<exp>"`, so parts can be fetched without the token for
 * one hour.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a signed part URL stays valid: one hour. */
export const PART_URL_LIFETIME_S = 3600;

/**
 * The signature of a part URL.
 *
 * @example
 * ```ts
 * import { partSignature } from "./part_url.ts";
 * partSignature("token", "cities", "ab".repeat(32), 1764000000);
 * ```
 */
export function partSignature(token: string, slug: string, sha256: string, exp: number): string {
  return createHmac("sha256", token).update(`${slug}/${sha256}/${exp}`).digest("hex");
}

/**
 * Whether `exp` and `sig` (from the query string) are a valid, unexpired
 * signature for the part at time `nowSeconds`.
 *
 * @example
 * ```ts
 * import { partSignature, partSignatureValid } from "./part_url.ts";
 * const sha = "ab".repeat(32);
 * partSignatureValid("t", "cities", sha, "2000", partSignature("t", "cities", sha, 2000), 1000); // true
 * ```
 */
export function partSignatureValid(
  token: string,
  slug: string,
  sha256: string,
  exp: string | null,
  sig: string | null,
  nowSeconds: number,
): boolean {
  if (exp === null || sig === null || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return false;
  if (Number(exp) <= nowSeconds) return false;
  const want = Buffer.from(partSignature(token, slug, sha256, Number(exp)), "hex");
  return timingSafeEqual(want, Buffer.from(sig, "hex"));
}

/**
 * The query string that signs a part URL made at `nowSeconds`, and when it
 * expires.
 *
 * @example
 * ```ts
 * import { signPartQuery } from "./part_url.ts";
 * signPartQuery("t", "cities", "ab".repeat(32), 1000).query; // "?exp=4600&sig=..."
 * ```
 */
export function signPartQuery(
  token: string,
  slug: string,
  sha256: string,
  nowSeconds: number,
): { query: string; exp: number } {
  const exp = Math.floor(nowSeconds) + PART_URL_LIFETIME_S;
  return { query: `?exp=${exp}&sig=${partSignature(token, slug, sha256, exp)}`, exp };
}
