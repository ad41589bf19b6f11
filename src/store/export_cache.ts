/**
 * Finished exports kept in the store. A version never changes, so its
 * gzip JSON lines are written once, while the first download streams, and
 * served again as a file: `<store>/<slug>/exports/v<N>-<key>.jsonl.gz`,
 * where the key names the version's parts and the export format.
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open, rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { projectDir } from "./layout.ts";
import type { StoredVersion } from "./store.ts";

/** Bumped whenever the bytes of an export would change, so old files are not served. */
const EXPORT_FORMAT = "svc-export-1";

/**
 * Where the finished export of `version` is kept.
 *
 * @example
 * ```ts ignore
 * exportCachePath("svc-data", version); // "svc-data/cities/exports/v2-1f0c....jsonl.gz"
 * ```
 */
export function exportCachePath(root: string, version: StoredVersion): string {
  const key = createHash("sha256")
    .update(`${EXPORT_FORMAT}\n${version.parts.map((p) => p.sha256).join("\n")}`)
    .digest("hex")
    .slice(0, 16);
  return join(projectDir(root, version.slug), "exports", `v${version.version}-${key}.jsonl.gz`);
}

/**
 * Passes `source` through unchanged while writing it to a temporary file
 * beside `path`, renamed into place (after fsync) only when the whole stream
 * has gone through; a cancelled or failed stream leaves nothing behind. When
 * the store cannot be written (a read-only mount), it only passes through.
 *
 * @example
 * ```ts ignore
 * const body = keepWhileStreaming(gzipJsonLines(engine, version), exportCachePath(root, version));
 * ```
 */
export function keepWhileStreaming(source: ReadableStream<Uint8Array>, path: string): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const temp = `${path}.tmp-${randomUUID()}`;
  let file: FileHandle | null = null;
  let opened = false;

  async function openTemp(): Promise<FileHandle | null> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return await open(temp, "wx");
    } catch {
      return null; // a store that cannot be written still serves the export
    }
  }

  async function keep(bytes: Uint8Array): Promise<void> {
    const { bytesWritten } = await file!.write(bytes);
    if (bytesWritten !== bytes.byteLength) throw new Error("short write");
  }

  async function discard() {
    const f = file;
    file = null;
    if (!f) return;
    await f.close().catch(() => {});
    await unlink(temp).catch(() => {});
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!opened) {
          opened = true;
          file = await openTemp();
        }
        const { done, value } = await reader.read();
        if (done) {
          if (file) {
            const f = file;
            file = null;
            await f.sync();
            await f.close();
            await rename(temp, path);
          }
          controller.close();
          return;
        }
        if (file) await keep(value).catch(discard);
        controller.enqueue(value);
      } catch (e) {
        await discard();
        controller.error(e);
      }
    },
    async cancel(reason) {
      await discard();
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
