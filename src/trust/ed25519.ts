/**
 * Ed25519 on WebCrypto (Deno and Node 20 both have it), key ids, and strict
 * standard base64.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";

/**
 * The bytes of strict standard base64 (with padding), or null when `text` is
 * not that.
 *
 * @example
 * ```ts
 * import { fromBase64 } from "./ed25519.ts";
 * fromBase64("AAE="); // Uint8Array [0, 1]
 * fromBase64("AAE"); // null
 * ```
 */
export function fromBase64(text: string): Uint8Array | null {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const bytes = new Uint8Array(Buffer.from(text, "base64"));
  return Buffer.from(bytes).toString("base64") === text ? bytes : null;
}

/**
 * Standard base64 with padding.
 *
 * @example
 * ```ts
 * import { toBase64 } from "./ed25519.ts";
 * toBase64(new Uint8Array([0, 1])); // "AAE="
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/**
 * A key's id: the first 16 hex digits of the SHA-256 of the raw 32-byte key.
 *
 * @example
 * ```ts
 * import { keyId } from "./ed25519.ts";
 * keyId(new Uint8Array(32)).length; // 16
 * ```
 */
export function keyId(raw: Uint8Array): string {
  return createHash("sha256").update(raw).digest("hex").slice(0, 16);
}

/**
 * Whether `signature` (64 bytes) by the raw 32-byte `publicKey` covers
 * `message`; false for keys or signatures of the wrong length.
 */
export async function verifyEd25519(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey("raw", publicKey as Uint8Array<ArrayBuffer>, { name: "Ed25519" }, false, [
      "verify",
    ]);
    return await crypto.subtle.verify(
      { name: "Ed25519" },
      key,
      signature as Uint8Array<ArrayBuffer>,
      message as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}
