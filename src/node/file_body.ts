/**
 * Files streamed as a Web stream, read in 256 KiB steps as the client takes
 * them (opened safely by `openRegularFile`, never through a symlink). The
 * stream is a byte stream: a reader that brings its own buffer has the file
 * read straight into it.
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";

export { openRegularFile } from "../store/mod.ts";

const STEP = 256 * 1024;

/**
 * Bytes `start` to `end` (inclusive) of an open file, closing it when the
 * stream ends or is cancelled.
 */
export function fileBody(handle: FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };
  return new ReadableStream({
    type: "bytes",
    async pull(controller: ReadableByteStreamController) {
      try {
        const want = Math.min(STEP, end + 1 - position);
        if (want <= 0) {
          await close();
          controller.close();
          // A reader waiting with its own buffer hears the end only once that buffer is given back empty.
          controller.byobRequest?.respond(0);
          return;
        }
        // A reader that brings its own buffer (the HTTP writer's) is read into; others get a new one.
        const request = controller.byobRequest;
        const view = request?.view;
        const room = view
          ? new Uint8Array(view.buffer, view.byteOffset, Math.min(view.byteLength, want))
          : new Uint8Array(want);
        const { bytesRead } = await handle.read(room, 0, room.byteLength, position);
        if (bytesRead === 0) throw new Error("the file ended early");
        position += bytesRead;
        if (request) request.respond(bytesRead);
        else controller.enqueue(room.subarray(0, bytesRead));
      } catch (e) {
        await close();
        controller.error(e);
      }
    },
    cancel: close,
  });
}
