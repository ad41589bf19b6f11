/**
 * Part files opened safely (never through a symlink) and streamed as a Web
 * stream, read in 64 KiB steps as the client takes them.
 *
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

const STEP = 256 * 1024;

/**
 * Opens a regular file for reading without following a symlink at its last
 * component; null when it is absent, a symlink or not a regular file.
 *
 * @example
 * ```ts ignore
 * const file = await openRegularFile("svc-data/cities/parts/ab.parquet");
 * ```
 */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number } | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    return null;
  }
  return { handle, size: info.size };
}

/**
 * Bytes `start` to `end` (inclusive) of an open file, closing it when the
 * stream ends or is cancelled.
 *
 * @example
 * ```ts ignore
 * new Response(fileBody(handle, 0, size - 1));
 * ```
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
