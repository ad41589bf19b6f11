/**
 * A byte range of a file as a Web stream, read in 64 KiB steps as the client
 * takes them.
 *
 * @module
 */
import { open } from "node:fs/promises";

const STEP = 64 * 1024;

/**
 * Bytes `start` to `end` (inclusive) of the file at `path`.
 *
 * @example
 * ```ts ignore
 * new Response(fileBody("part.parquet", 0, size - 1));
 * ```
 */
export function fileBody(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  return new ReadableStream<Uint8Array>({
    type: "bytes",
    async pull(controller) {
      try {
        handle ??= await open(path, "r");
        const want = Math.min(STEP, end + 1 - position);
        if (want <= 0) {
          await handle.close();
          handle = null;
          controller.close();
          return;
        }
        const buffer = new Uint8Array(want);
        const { bytesRead } = await handle.read(buffer, 0, want, position);
        if (bytesRead === 0) throw new Error(`${path} ended early`);
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (e) {
        await handle?.close().catch(() => {});
        handle = null;
        controller.error(e);
      }
    },
    async cancel() {
      await handle?.close().catch(() => {});
      handle = null;
    },
  });
}
