/**
 * A byte stream for tests of readers that bring their own buffer (the
 * server's writer, a relay): it fills each buffer it is given from one
 * array of bytes.
 *
 * @module
 */
import { assert } from "./assert.ts";

/** A byte source and what it saw. */
export interface ByteSource {
  /** The stream. */
  stream: ReadableStream<Uint8Array>;
  /** The reads that gave bytes. */
  served(): number;
  /** The size of each buffer a read brought. */
  sizes: number[];
}

/** `bytes` as a byte stream that writes at most `most` of them into each reader's buffer. */
export function byteSource(bytes: Uint8Array, most = Infinity): ByteSource {
  let at = 0;
  let served = 0;
  const sizes: number[] = [];
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller: ReadableByteStreamController) {
      const view = controller.byobRequest?.view;
      assert(view, "the reader reads with its own buffer");
      sizes.push(view.byteLength);
      const n = Math.min(view.byteLength, bytes.length - at, most);
      if (n === 0) {
        controller.close();
        controller.byobRequest!.respond(0);
        return;
      }
      new Uint8Array(view.buffer, view.byteOffset, n).set(bytes.subarray(at, at + n));
      at += n;
      served++;
      controller.byobRequest!.respond(n);
    },
  });
  return { stream, served: () => served, sizes };
}
