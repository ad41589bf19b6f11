/**
 * Signing as the origin does, for the test origin and the trust tests:
 * fixed Ed25519 keys from 32-byte seeds, manifest signatures and key
 * endorsements in the wire format.
 *
 * @module
 */
import { fromHex } from "./hex.ts";
import { keyId, toBase64 } from "../../src/trust/ed25519.ts";
import { endorsementStatement, manifestStatement } from "../../src/trust/statement.ts";
import type { ChainLink } from "../../src/trust/verify.ts";

/** An origin signing key. */
export interface SigningKey {
  /** Key id. */
  kid: string;
  /** Raw public key, base64. */
  publicKey: string;
  /** Signs bytes. */
  sign(bytes: Uint8Array): Promise<string>;
}

const PKCS8_PREFIX = fromHex("302e020100300506032b657004220420");

/** The Ed25519 key whose seed is `seedHex` (64 hex digits). */
export async function signingKey(seedHex: string): Promise<SigningKey> {
  const pkcs8 = new Uint8Array([...PKCS8_PREFIX, ...fromHex(seedHex)]);
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
  const jwk = await crypto.subtle.exportKey("jwk", privateKey);
  const raw = new Uint8Array(
    atob(jwk.x!.replaceAll("-", "+").replaceAll("_", "/") + "=").split("").map((c) => c.charCodeAt(0)),
  );
  return {
    kid: keyId(raw),
    publicKey: toBase64(raw),
    sign: async (bytes) =>
      toBase64(
        new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, bytes as Uint8Array<ArrayBuffer>)),
      ),
  };
}

/** `old`'s endorsement of `next`, as a chain link. */
export async function endorse(origin: string, old: SigningKey, next: SigningKey): Promise<ChainLink> {
  const key = { alg: "Ed25519", kid: next.kid, publicKey: next.publicKey };
  return { ...key, by: old.kid, sig: await old.sign(endorsementStatement(origin, key)) };
}

/** `manifest` with `key`'s signature for `origin` (and `chain`). */
export async function signManifest(
  manifest: Record<string, unknown>,
  origin: string,
  key: SigningKey,
  chain: ChainLink[] = [],
): Promise<Record<string, unknown>> {
  const sig = await key.sign(manifestStatement(origin, manifest));
  return { ...manifest, signature: { origin, kid: key.kid, alg: "Ed25519", sig, chain } };
}

/** A trust file's text holding one current key of `origin`, made from `seedHex`, as `svc trust add` would pin it. */
export async function trustFileText(origin: string, seedHex: string): Promise<string> {
  const key = await signingKey(seedHex);
  const pinned = { kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status: "current", addedAt: "2026-01-01" };
  return JSON.stringify({ origins: { [origin]: [pinned] } });
}
