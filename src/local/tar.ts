/**
 * Plain (ustar) tar, just what bundles need: regular files written one after
 * another, and read back as a stream of entries whose bodies are consumed in
 * order. Anything but a regular file is refused on reading.
 *
 * @module
 */
import { BundleError } from "../client/mod.ts";

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

/**
 * The 512-byte ustar header of a regular file.
 *
 * @example
 * ```ts
 * import { tarHeader } from "./tar.ts";
 * tarHeader("svc-bundle.json", 120, 0).length; // 512
 * ```
 */
export function tarHeader(name: string, size: number, mtimeSeconds: number): Uint8Array {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length > 100) throw new RangeError(`tar member name too long: ${name}`);
  const header = new Uint8Array(BLOCK);
  const put = (text: string, at: number) => header.set(new TextEncoder().encode(text), at);
  header.set(bytes, 0);
  put(octal(0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(Math.floor(mtimeSeconds), 12), 136);
  put("        ", 148);
  put("0", 156);
  put("ustar\0", 257);
  put("00", 263);
  const sum = header.reduce((a, b) => a + b, 0);
  put(octal(sum, 7) + " ", 148);
  return header;
}

/** Zero bytes that pad a member of `size` bytes to a whole block. */
export function tarPadding(size: number): Uint8Array {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end an archive. */
export const TAR_END: Uint8Array = new Uint8Array(2 * BLOCK);

/** One member as it is read: its name, size and a body to read in full or skip. */
export interface TarEntry {
  /** Member name. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** The member's bytes, in chunks; must be drained before the next entry. */
  body: AsyncIterable<Uint8Array>;
}

function field(block: Uint8Array, at: number, width: number): string {
  const bytes = block.subarray(at, at + width);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/**
 * The members of a tar stream, in order. Throws `BundleError` on a bad
 * checksum, a member that is not a regular file, or a stream that ends
 * early.
 */
export async function* readTar(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const iterator = source[Symbol.asyncIterator]();
  let buffer = new Uint8Array(0);
  async function fill(n: number): Promise<boolean> {
    while (buffer.length < n) {
      const { done, value } = await iterator.next();
      if (done) return false;
      const next = new Uint8Array(buffer.length + value.length);
      next.set(buffer);
      next.set(value, buffer.length);
      buffer = next;
    }
    return true;
  }
  function take(n: number): Uint8Array {
    const out = buffer.subarray(0, n);
    buffer = buffer.subarray(n);
    return out;
  }
  while (true) {
    if (!(await fill(BLOCK))) throw new BundleError("the bundle ends without the end of archive", 0, "bundle", null);
    const header = take(BLOCK).slice();
    if (header.every((b) => b === 0)) return;
    const stored = parseInt(field(header, 148, 8).trim(), 8);
    header.fill(32, 148, 156);
    if (header.reduce((a, b) => a + b, 0) !== stored) {
      throw new BundleError("the bundle has a damaged member header", 0, "bundle", null);
    }
    const type = String.fromCharCode(header[156]);
    const name = (field(header, 345, 155) ? field(header, 345, 155) + "/" : "") + field(header, 0, 100);
    if (type !== "0" && type !== "\0") {
      throw new BundleError(`the bundle member ${JSON.stringify(name)} is not a regular file`, 0, "bundle", null);
    }
    const size = parseInt(field(header, 124, 12).trim() || "0", 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new BundleError(`bad size for ${name}`, 0, "bundle", null);
    let left = size;
    let drained = false;
    const body = {
      async *[Symbol.asyncIterator]() {
        while (left > 0) {
          if (buffer.length === 0 && !(await fill(1))) {
            throw new BundleError(`the bundle ends inside ${name}`, 0, "bundle", null);
          }
          const chunk = take(Math.min(left, buffer.length));
          left -= chunk.length;
          yield chunk;
        }
        drained = true;
      },
    };
    yield { name, size, body };
    if (!drained) { for await (const _ of body) { /* skip what the reader left */ } }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad > 0) {
      if (!(await fill(pad))) throw new BundleError("the bundle ends inside padding", 0, "bundle", null);
      take(pad);
    }
  }
}
