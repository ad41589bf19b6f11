/**
 * How a compressed block's runs of records are compressed and decompressed:
 * zstd at level 1 where the runtime has it (Deno, Node from 22.15), Brotli
 * otherwise.
 *
 * `zlib.zstdDecompressSync` builds a stream object and a native decompressor
 * for every call: 17-19 µs before the first byte, most of a 13 KB run's 23
 * µs. A page served from a compressed block decompresses two or three runs,
 * so that setup was most of what a budgeted node paid over the default one.
 * Here one native decompressor (the handle inside a `ZstdDecompress`, whose
 * `writeSync` and `reset` Node and Deno both have) is kept and reset between
 * runs, and each run is written straight into the page's buffer: 11 µs a run
 * (docs/benchmarks.md, "budget"). The handle is not a public API, so it is
 * used only after it has decompressed a known frame right at load, and any
 * run it does not decompress to exactly its size goes through the public
 * call instead (a fresh handle is made for the next).
 *
 * @module
 */
import * as zlib from "node:zlib";

/** A codec for runs of records. */
export interface RunCodec {
  /** Which: `zstd`, or `brotli` where the runtime has no zstd. */
  readonly name: "zstd" | "brotli";
  /** Whether runs are decompressed with one kept native decompressor (zstd's, checked at load). */
  readonly kept: boolean;
  /** One run compressed. */
  compress(bytes: Uint8Array): Uint8Array;
  /**
   * Decompresses `frame` into `out` from `at`: exactly `size` bytes, or
   * throws. With `prefix` (less than `size`), only the frame's first
   * `prefix` bytes are written: the rest of `out` is left as it was (the
   * codec still decodes a run whole inside; zstd's block is the run).
   */
  decompressInto(frame: Uint8Array, out: Uint8Array, at: number, size: number, prefix?: number): void;
}

/** node:zlib's zstd, typed here: the `@types/node` that `deno task check` uses predates it. */
const ZSTD = zlib as unknown as {
  zstdCompressSync?: (bytes: Uint8Array, options: { params: Record<number, number> }) => Uint8Array;
  zstdDecompressSync?: (bytes: Uint8Array) => Uint8Array;
  ZstdDecompress?: new () => ZstdEngine;
  constants: { ZSTD_c_compressionLevel?: number };
};

/** What a `ZstdDecompress` holds inside, in Node and in Deno. */
interface ZstdEngine {
  _handle?: {
    writeSync(
      flush: number,
      input: Uint8Array,
      inAt: number,
      inLength: number,
      out: Uint8Array,
      outAt: number,
      outLength: number,
    ): void;
    reset(): void;
    onerror?: (message: string) => void;
  };
  /** After `writeSync`: the output and the input it left unused. */
  _writeState?: Uint32Array;
  /** The flush that ends a frame. */
  _finishFlushFlag?: number;
}

/**
 * Brotli's quality 2 and a 64 KiB window. Measured on 10,240 records of 109
 * bytes: 8.6x smaller, 8 ms to compress the block, 0.07 ms to decompress a
 * page's runs. Quality 1 in runs of 256 records was 7.8x, 5 ms and 0.13 ms,
 * and the decompressing is paid on every page served from the cache.
 */
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2, [zlib.constants.BROTLI_PARAM_LGWIN]: 16 },
};

/** The first `prefix` of `bytes` into `out` at `at`, when they are `size` long. */
function place(bytes: Uint8Array, out: Uint8Array, at: number, size: number, prefix = size): void {
  if (bytes.length !== size) throw new RangeError(`a compressed run held ${bytes.length} bytes, not ${size}`);
  out.set(prefix < size ? bytes.subarray(0, prefix) : bytes, at);
}

/**
 * A decompressor that writes a frame (its first `prefix` bytes of `size`)
 * into a given place with one kept native handle, or undefined where there
 * is none to keep. Returns false (and starts a fresh handle) for a frame it
 * did not decompress to exactly `size`, or whose first `prefix` bytes it did
 * not fill. Asked for a prefix, zstd decodes the run's one block inside and
 * writes what fits; the handle is reset either way.
 */
function keptDecompressor():
  | ((frame: Uint8Array, out: Uint8Array, at: number, size: number, prefix: number) => boolean)
  | undefined {
  const Engine = ZSTD.ZstdDecompress;
  if (typeof Engine !== "function") return undefined;
  const open = () => {
    const engine = new Engine();
    const handle = engine._handle;
    const state = engine._writeState;
    if (!handle || !(state instanceof Uint32Array) || typeof engine._finishFlushFlag !== "number") return undefined;
    if (typeof handle.writeSync !== "function" || typeof handle.reset !== "function") return undefined;
    const kept = { engine, handle, state, end: engine._finishFlushFlag, failed: false };
    // Node reports a corrupt frame through the handle's `onerror` (Deno throws): either way the run is not placed.
    handle.onerror = () => (kept.failed = true);
    return kept;
  };
  let kept = open();
  if (!kept) return undefined;
  return (frame, out, at, size, prefix) => {
    if (!kept) kept = open();
    if (!kept) return false;
    kept.failed = false;
    try {
      kept.handle.writeSync(kept.end, frame, 0, frame.length, out, at, prefix);
    } catch {
      kept.failed = true;
    }
    const whole = !kept.failed && kept.state[0] === 0 && (prefix < size || kept.state[1] === 0);
    if (whole) kept.handle.reset();
    else kept = undefined;
    return whole;
  };
}

/** zstd's codec, the kept handle used once it has decompressed a known frame right. */
function zstdCodec(
  compressSync: NonNullable<typeof ZSTD.zstdCompressSync>,
  decompressSync: NonNullable<typeof ZSTD.zstdDecompressSync>,
): RunCodec {
  const level = { params: { [ZSTD.constants.ZSTD_c_compressionLevel ?? 100]: 1 } };
  const compress = (bytes: Uint8Array) => compressSync(bytes, level);
  let kept = keptDecompressor();
  if (kept) {
    const sample = new TextEncoder().encode(`[${Array.from({ length: 64 }, (_, i) => `{"id":${i}}`).join(",")}]`);
    const out = new Uint8Array(sample.length + 2);
    const frame = compress(sample);
    /** Whether the kept handle writes the sample's first `prefix` bytes at `at`, and nothing past them. */
    const decodes = (at: number, prefix: number) =>
      kept!(frame, out.fill(0), at, sample.length, prefix) &&
      out.subarray(at, at + prefix).every((b, i) => b === sample[i]) && out[at + prefix] === 0;
    // Whole, then a prefix, then whole again: the handle is reset right after a prefix.
    if (!(decodes(1, sample.length) && decodes(0, sample.length >> 1) && decodes(1, sample.length))) kept = undefined;
  }
  return {
    name: "zstd",
    kept: kept !== undefined,
    compress,
    decompressInto(frame, out, at, size, prefix = size) {
      if (kept?.(frame, out, at, size, Math.min(prefix, size))) return;
      place(decompressSync(frame), out, at, size, prefix);
    },
  };
}

/**
 * The codec this runtime compresses runs with.
 *
 * @example
 * ```ts
 * import { runCodec } from "./_run_codec.ts";
 * const codec = runCodec();
 * const text = new TextEncoder().encode('{"id":1},{"id":2}');
 * const out = new Uint8Array(text.length);
 * codec.decompressInto(codec.compress(text), out, 0, text.length);
 * new TextDecoder().decode(out); // '{"id":1},{"id":2}'
 * ```
 */
export function runCodec(): RunCodec {
  if (typeof ZSTD.zstdCompressSync === "function" && typeof ZSTD.zstdDecompressSync === "function") {
    return zstdCodec(ZSTD.zstdCompressSync, ZSTD.zstdDecompressSync);
  }
  return {
    name: "brotli",
    kept: false,
    compress: (bytes) => zlib.brotliCompressSync(bytes, BROTLI),
    decompressInto: (frame, out, at, size, prefix) => place(zlib.brotliDecompressSync(frame), out, at, size, prefix),
  };
}
