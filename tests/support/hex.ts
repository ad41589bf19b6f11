/**
 * Hex text to bytes, for fixed keys and vectors.
 *
 * @module
 */

/** The bytes of an even-length hex string. */
export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(hex.match(/../g)!.map((b) => parseInt(b, 16)));
}
