/**
 * Files streamed as a Web stream, read in 256 KiB steps as the client takes
 * them (opened safely by `openRegularFile`, never through a symlink).
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
  return new ReadableStream<Uint8Array>({
    type: "bytes",
    async pull(controller) {
      try {
        const want = Math.min(STEP, end + 1 - position);
        if (want <= 0) {
          await close();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(want);
        const { bytesRead } = await handle.read(buffer, 0, want, position);
        if (bytesRead === 0) throw new Error("the file ended early");
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (e) {
        await close();
        controller.error(e);
      }
    },
    cancel: close,
  });
}
