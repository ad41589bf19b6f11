/**
 * A body passed on through another stream (one that lets go of a leased
 * version when done, or that has read its source's first chunk already)
 * without losing what the server's writer gains from a byte stream: its
 * reads go into the writer's own buffer, reused chunk after chunk (see
 * `_response.ts`), down to the source when the source is a byte stream too.
 *
 * @module
 */

/** What a relay does besides passing its source's bytes on. */
export interface RelayOptions {
  /** A read of the source made already (its first chunk, or its end), passed on before anything else. */
  first?: ReadableStreamReadResult<Uint8Array>;
  /** Called when the source has ended, failed, or stopped after being cancelled (maybe more than once). */
  settled?: () => void;
}

/** Bytes read at a time from a byte source for a reader that brings no buffer. */
const STEP = 256 * 1024;

type SourceReader = { byob: ReadableStreamBYOBReader } | { plain: ReadableStreamDefaultReader<Uint8Array> };

function readerOf(source: ReadableStream<Uint8Array>): SourceReader {
  try {
    return { byob: source.getReader({ mode: "byob" }) };
  } catch {
    return { plain: source.getReader() };
  }
}

/**
 * Passes one read of the source on: its bytes, or its end. The bytes are
 * copied (into the reader's buffer when it brought one): a byte stream takes
 * the memory of what it is given, and these may still be the source's (a
 * slice of a compressor's output buffer, a chunk a cache writes out).
 */
function passOn(controller: ReadableByteStreamController, got: ReadableStreamReadResult<Uint8Array>): void {
  if (got.done) {
    controller.close();
    controller.byobRequest?.respond(0);
    return;
  }
  let bytes = got.value;
  const request = controller.byobRequest;
  if (request?.view && bytes.length > 0) {
    const room = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
    const n = Math.min(room.length, bytes.length);
    room.set(bytes.subarray(0, n));
    request.respond(n);
    bytes = bytes.subarray(n);
  }
  if (bytes.length > 0) controller.enqueue(bytes.slice());
}

/** One read of `reader` passed on, into the asking reader's buffer when both sides take one. */
async function relayOne(controller: ReadableByteStreamController, reader: SourceReader): Promise<boolean> {
  if ("plain" in reader) {
    // An empty chunk fills no request: a pull that gives nothing is not called again, and the body stalls.
    let got = await reader.plain.read();
    while (!got.done && got.value.length === 0) got = await reader.plain.read();
    passOn(controller, got);
    return got.done;
  }
  const request = controller.byobRequest;
  const view = request?.view;
  const got = await reader.byob.read(
    view ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength) : new Uint8Array(STEP),
  );
  if (!request) passOn(controller, got);
  else {
    if (got.done) controller.close();
    if (got.value) request.respondWithNewView(got.value);
    else request.respond(0);
  }
  return got.done;
}

/**
 * `source` passed on as a byte stream, `options.first` before it, calling
 * `options.settled` once it ends, fails, or has stopped after a cancel.
 *
 * @example
 * ```ts
 * import { relay } from "./relay.ts";
 * let done = false;
 * const body = relay(new Response("abc").body!, { settled: () => (done = true) });
 * await new Response(body).text(); // "abc"
 * console.log(done); // true
 * ```
 */
export function relay(source: ReadableStream<Uint8Array>, options: RelayOptions = {}): ReadableStream<Uint8Array> {
  let first = options.first ?? null;
  let reader: SourceReader | null = null;
  const settled = options.settled ?? (() => {});
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: STEP,
    async pull(controller: ReadableByteStreamController) {
      try {
        const got = first;
        first = null;
        if (got !== null && (got.done || got.value.length > 0)) {
          passOn(controller, got);
          if (got.done) settled();
          return;
        }
        if (await relayOne(controller, reader ??= readerOf(source))) settled();
      } catch (e) {
        settled();
        controller.error(e);
      }
    },
    async cancel(reason) {
      first = null;
      // Let go only once the source has stopped (a query under way finishes its chunk first).
      try {
        await (reader === null ? source : "byob" in reader ? reader.byob : reader.plain).cancel(reason);
      } finally {
        settled();
      }
    },
  }, { highWaterMark: 0 });
}
