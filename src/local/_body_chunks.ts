/**
 * Reading a response body in large chunks into one reused buffer.
 *
 * @module
 */

/** Bytes of the buffer a body is read into. */
const BUFFER_BYTES = 1024 * 1024;

/**
 * Yields the bytes of `body` in chunks as large as the network gives at once
 * (up to 1 MiB), read into one buffer that is reused: a chunk is valid only
 * until the loop asks for the next, so the caller must be done with it (hashed,
 * written and awaited) by then. A bring-your-own-buffer reader takes a quarter
 * as many reads as the default reader on a fast download, and allocates
 * nothing per read; streams that offer no such reader are read the default
 * way.
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    yield* body;
    return;
  }
  try {
    let buffer = new ArrayBuffer(BUFFER_BYTES);
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done || !value) return;
      yield value;
      buffer = value.buffer as ArrayBuffer;
    }
  } finally {
    // A loop left early (a refused part, an abort) cancels the rest of the body.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
