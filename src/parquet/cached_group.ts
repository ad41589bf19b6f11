/**
 * One block of records as the page cache keeps it: the UTF-8 of their JSON
 * texts joined by commas (as a page writes them) and where each record
 * starts, so a page is a slice of bytes already encoded and none of it sits
 * in the JavaScript heap. A compressed block keeps the same bytes compressed
 * in runs of {@linkcode COMPRESSED_RUN} records (zstd, or Brotli where the
 * runtime has no zstd), so a page decompresses only the runs it falls in. On
 * the bench data JSON records came out at an eighth of their size (deflate at
 * level 1: a quarter), compressing a 10,240-record block took about 4 ms and
 * decompressing a page's runs about 0.03 ms (docs/benchmarks.md, "budget").
 *
 * @module
 */
import { runCodec } from "./_run_codec.ts";

/** One block's records, as the page cache keeps them. */
export interface CachedGroup {
  /** Records held. */
  readonly count: number;
  /** Bytes it holds in memory. */
  readonly size: number;
  /** Records `a` to `b` (not included) joined by commas, as UTF-8. */
  bytes(a: number, b: number): Uint8Array;
  /** The bytes {@linkcode CachedGroup.bytes} would give for records `a` to `b`. */
  byteLength(a: number, b: number): number;
  /** Writes those bytes into `out` at `at` (a compressed block decompresses them there: no copy to make and drop). */
  writeInto(a: number, b: number, out: Uint8Array, at: number): void;
  /** Records `a` to `b` (not included), each as its JSON text. */
  records(a: number, b: number): string[];
  /** Whether its bytes are kept compressed. */
  readonly compressed: boolean;
  /** The same records kept compressed (itself when they are). */
  compress(): CachedGroup;
  /** The same records kept plain (itself when they are): every run decompressed once. */
  decompress(): CachedGroup;
  /** Bytes it would hold plain. */
  readonly plainSize: number;
  /**
   * Hands its memory back to the system now, not at the next garbage
   * collection (where the runtime can: `ArrayBuffer.prototype.transfer`).
   * Its records are gone after it: only for a block no read holds.
   */
  release(): void;
}

/** How a block is kept. */
export interface CachedGroupOptions {
  /** Compress the records in runs (an eighth to a quarter of the memory, about 0.03 ms more a page). */
  compressed?: boolean;
}

/** Records a compressed block compresses together: a page of 100 decompresses two runs, or one, or three. */
export const COMPRESSED_RUN = 128;
/** What every block holds besides its bytes and offsets. */
const OVERHEAD = 64;

/** Whether this runtime can free a buffer's memory at once (Node 20 cannot: its buffers go at a collection). */
const CAN_RELEASE = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === "function";

/**
 * Frees `view`'s memory now when the view is its whole buffer's only user:
 * the buffer is detached (`transfer(0)`), and every view of it is empty after.
 */
function releaseWhole(view: ArrayBufferView, ownsBuffer: boolean): void {
  // Typed by hand: the npm package's TypeScript library (ES2022) has neither `transfer` nor `detached`.
  const buffer = view.buffer as ArrayBufferLike & { transfer?: (length: number) => ArrayBuffer; detached?: boolean };
  if (!CAN_RELEASE || !ownsBuffer || !(buffer instanceof ArrayBuffer) || buffer.detached) return;
  buffer.transfer?.(0);
}

/** Bytes a join writes where it puts them (a cached block's records: see {@linkcode CachedGroup.writeInto}). */
export interface ByteSource {
  /** Bytes it writes. */
  readonly length: number;
  /** Writes them into `out` at `at`. */
  writeInto(out: Uint8Array, at: number): void;
}

/**
 * `chunks` joined by commas into one array: records' JSON texts as a page
 * writes them, between `around`'s `head` and `tail` when given (the answer's
 * JSON around its records, in the same one allocation: a page's bytes are
 * most of what a busy node allocates, and each copy is garbage to collect).
 * A chunk is bytes, or a {@linkcode ByteSource} that writes itself into its
 * place. One array with nothing around it is given back as it is.
 *
 * @example
 * ```ts
 * import { joinBytes } from "./cached_group.ts";
 * const e = new TextEncoder();
 * new TextDecoder().decode(joinBytes([e.encode("1"), e.encode("2")])); // "1,2"
 * new TextDecoder().decode(joinBytes([e.encode("1")], { head: e.encode("["), tail: e.encode("]") })); // "[1]"
 * const three = { length: 1, writeInto: (out: Uint8Array, at: number) => void (out[at] = 51) };
 * new TextDecoder().decode(joinBytes([e.encode("1"), three])); // "1,3"
 * ```
 */
export function joinBytes(
  chunks: readonly (Uint8Array | ByteSource)[],
  around?: { head: Uint8Array; tail: Uint8Array },
): Uint8Array<ArrayBuffer> {
  const only = chunks[0];
  if (chunks.length === 1 && !around && only instanceof Uint8Array && only.buffer instanceof ArrayBuffer) {
    return only as Uint8Array<ArrayBuffer>;
  }
  const head = around?.head ?? new Uint8Array(0);
  const tail = around?.tail ?? new Uint8Array(0);
  const commas = Math.max(0, chunks.length - 1);
  const out = new Uint8Array(head.length + chunks.reduce((n, c) => n + c.length, 0) + commas + tail.length);
  out.set(head);
  let at = head.length;
  for (const [i, c] of chunks.entries()) {
    if (i > 0) out[at++] = 44; // ","
    if (c instanceof Uint8Array) out.set(c, at);
    else c.writeInto(out, at);
    at += c.length;
  }
  out.set(tail, at);
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Joins the records of a block into a {@linkcode CachedGroup}, compressed in
 * runs when `options.compressed`.
 *
 * @example
 * ```ts
 * import { cachedGroup } from "./cached_group.ts";
 * const group = cachedGroup(['{"id":1}', '{"id":2}', '{"id":3}'], { compressed: true });
 * new TextDecoder().decode(group.bytes(1, 3)); // '{"id":2},{"id":3}'
 * group.records(0, 1); // ['{"id":1}']
 * ```
 */
export function cachedGroup(records: readonly string[], options: CachedGroupOptions = {}): CachedGroup {
  const starts = new Uint32Array(records.length + 1);
  // Every UTF-16 code unit is at most 3 bytes of UTF-8.
  const room = new Uint8Array(records.reduce((n, r) => n + r.length * 3 + 1, 0));
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    starts[i] = at;
    at += encoder.encodeInto(records[i], room.subarray(at)).written;
    room[at++] = 44; // ","
  }
  starts[records.length] = at;
  const text = room.subarray(0, Math.max(0, at - 1));
  return options.compressed ? compressedGroup(text, starts) : plainGroup(text, starts);
}

/**
 * A plain {@linkcode CachedGroup} of records already joined by commas into
 * `text` (UTF-8), each `lengths[i]` bytes long.
 *
 * @example
 * ```ts
 * import { cachedGroupOfText } from "./cached_group.ts";
 * const group = cachedGroupOfText(new TextEncoder().encode('{"id":1},{"id":22}'), [8, 9]);
 * group.records(1, 2); // ['{"id":22}']
 * ```
 */
export function cachedGroupOfText(text: Uint8Array, lengths: readonly number[]): CachedGroup {
  const starts = new Uint32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) starts[i + 1] = starts[i] + lengths[i] + 1;
  if (Math.max(0, starts[lengths.length] - 1) !== text.length) {
    throw new RangeError(`${lengths.length} records of ${starts[lengths.length] - 1} bytes, not ${text.length}`);
  }
  // The text is an allocation of its own already (DuckDB's value, copied out): kept as it is, not copied again.
  return plainGroup(text, starts, false);
}

/**
 * One allocation holding `words` (each as 32-bit words) then `bytes`: a block
 * is one backing store, so a cache of thousands of blocks leaves the C
 * allocator no small long-lived pieces to fragment its heap with (and a large
 * one is mapped on its own, and unmapped when dropped).
 */
function packed(words: readonly Uint32Array[], bytes: Uint8Array): { words: Uint32Array[]; bytes: Uint8Array } {
  const wordBytes = words.reduce((n, w) => n + w.byteLength, 0);
  const buffer = new ArrayBuffer(wordBytes + bytes.byteLength);
  let at = 0;
  const out = words.map((w) => {
    const copy = new Uint32Array(buffer, at, w.length);
    copy.set(w);
    at += w.byteLength;
    return copy;
  });
  const text = new Uint8Array(buffer, at, bytes.byteLength);
  text.set(bytes);
  return { words: out, bytes: text };
}

/** Records `a` to `b` of `text` whose record offsets (from `base`) are `starts`, each as its JSON text. */
function split(text: Uint8Array, starts: Uint32Array, base: number, a: number, b: number): string[] {
  return Array.from(
    { length: b - a },
    (_, i) => decoder.decode(text.subarray(starts[a + i] - base, starts[a + i + 1] - base - 1)),
  );
}

/** Bytes records `a` to `b` take joined by commas, given where each starts (`starts`, one past the last too). */
function joinedLength(starts: Uint32Array, a: number, b: number): number {
  return b > a ? starts[b] - 1 - starts[a] : 0;
}

/**
 * A plain block of `source` (records joined by commas) and `offsets`; packed
 * into one allocation of its own unless `pack` is false, when `source` is
 * taken as it is (its buffer is the block's own only when `source` spans it
 * whole: then {@linkcode CachedGroup.release} frees it).
 */
function plainGroup(source: Uint8Array, offsets: Uint32Array, pack = true): CachedGroup {
  const { words: [starts], bytes: text } = pack ? packed([offsets], source) : { words: [offsets], bytes: source };
  const ownsText = pack || (text.byteOffset === 0 && text.byteLength === text.buffer.byteLength) ||
    text.buffer === starts.buffer;
  const group: CachedGroup = {
    count: starts.length - 1,
    size: text.byteLength + starts.byteLength + OVERHEAD,
    byteLength: (a, b) => joinedLength(starts, a, b),
    writeInto(a, b, out, to) {
      if (b > a) out.set(text.subarray(starts[a], starts[b] - 1), to);
    },
    bytes: (a, b) => b > a ? text.subarray(starts[a], starts[b] - 1) : new Uint8Array(0),
    records: (a, b) => split(text, starts, 0, a, b),
    compressed: false,
    compress: () => compressedGroup(text, starts),
    decompress: () => group,
    plainSize: text.byteLength + starts.byteLength + OVERHEAD,
    release: () => releaseWhole(text, ownsText),
  };
  return group;
}

/** How this runtime compresses runs: zstd, or Brotli where it has none. */
const RUNS = runCodec();

/**
 * The records of `text` (their `offsets` in it) compressed in runs of
 * {@linkcode COMPRESSED_RUN}, packed with the offsets and where each run
 * starts. Its own function so that no closure of a block's shares a scope
 * with the runs as they were made: V8 keeps a function's captured variables
 * in one context, and a block whose context held its joined runs kept its
 * compressed bytes twice (16 of a 512 MiB node's 37 MiB of buffers after an
 * idle trim, none of them counted in the cache's size).
 */
function compressedRuns(
  text: Uint8Array,
  offsets: Uint32Array,
): { starts: Uint32Array; at: Uint32Array; bytes: Uint8Array } {
  const count = offsets.length - 1;
  const runs: Uint8Array[] = [];
  for (let from = 0; from < count; from += COMPRESSED_RUN) {
    const to = Math.min(count, from + COMPRESSED_RUN);
    runs.push(RUNS.compress(text.subarray(offsets[from], offsets[to] - 1)));
  }
  const runStarts = new Uint32Array(runs.length + 1);
  for (let r = 0; r < runs.length; r++) runStarts[r + 1] = runStarts[r] + runs[r].byteLength;
  const joined = new Uint8Array(runStarts[runs.length]);
  for (let r = 0; r < runs.length; r++) joined.set(runs[r], runStarts[r]);
  const { words: [starts, at], bytes } = packed([offsets, runStarts], joined);
  return { starts, at, bytes };
}

/**
 * Where runs are decompressed when only their end is wanted (a page starting
 * inside a run): kept between calls, which are synchronous, up to
 * {@linkcode SCRATCH_KEPT} bytes.
 */
let scratch = new Uint8Array(0);
/** The scratch kept at most: a run of the bench's records is 14 KB; one of huge records is allocated each time. */
const SCRATCH_KEPT = 256 * 1024;

function scratchOf(size: number): Uint8Array {
  if (size <= scratch.length) return scratch;
  const room = new Uint8Array(size);
  if (size <= SCRATCH_KEPT) scratch = room;
  return room;
}

function compressedGroup(text: Uint8Array, offsets: Uint32Array): CachedGroup {
  const count = offsets.length - 1;
  const { starts, at, bytes } = compressedRuns(text, offsets);
  /**
   * Records `a` to `b` joined by commas into `out` at `to`. Each run is
   * decompressed only as far as the last record wanted; a run wanted whole or
   * from its start straight into `out`, one wanted from inside through
   * {@linkcode scratch}.
   */
  const writeInto = (a: number, b: number, out: Uint8Array, to: number) => {
    if (b <= a) return;
    const base = starts[a];
    for (let r = Math.floor(a / COMPRESSED_RUN); r * COMPRESSED_RUN < b; r++) {
      const from = r * COMPRESSED_RUN;
      const end = Math.min(count, from + COMPRESSED_RUN);
      const size = starts[end] - 1 - starts[from];
      const wanted = starts[Math.min(b, end)] - 1 - starts[from];
      const frame = bytes.subarray(at[r], at[r + 1]);
      if (from >= a) {
        RUNS.decompressInto(frame, out, to + starts[from] - base, size, wanted);
      } else {
        const room = scratchOf(wanted);
        RUNS.decompressInto(frame, room, 0, size, wanted);
        out.set(room.subarray(starts[a] - starts[from], wanted), to);
      }
      if (end < b) out[to + starts[end] - 1 - base] = 44; // ","
    }
  };
  const group: CachedGroup = {
    count,
    size: bytes.byteLength + starts.byteLength + at.byteLength + OVERHEAD,
    byteLength: (a, b) => joinedLength(starts, a, b),
    writeInto,
    bytes(a, b) {
      const out = new Uint8Array(joinedLength(starts, a, b));
      writeInto(a, b, out, 0);
      return out;
    },
    records(a, b) {
      if (b <= a) return [];
      return split(group.bytes(a, b), starts, starts[a], a, b);
    },
    compressed: true,
    compress: () => group,
    decompress: () => {
      // Decompressed straight into the one allocation a plain block is (its offsets, then its text).
      const buffer = new ArrayBuffer(starts.byteLength + joinedLength(starts, 0, count));
      const plainStarts = new Uint32Array(buffer, 0, starts.length);
      plainStarts.set(starts);
      const plain = new Uint8Array(buffer, starts.byteLength);
      writeInto(0, count, plain, 0);
      return plainGroup(plain, plainStarts, false);
    },
    plainSize: text.byteLength + starts.byteLength + OVERHEAD,
    release: () => releaseWhole(bytes, true),
  };
  return group;
}
