/**
 * Writes that a crash cannot tear: a temporary file beside the target,
 * fsynced, renamed over it, and the folder fsynced so the rename itself
 * survives a power cut.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Fsyncs a folder so that entries renamed into it are durable.
 */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** How {@linkcode writeFileAtomic} writes. */
export interface AtomicOptions {
  /**
   * Where the temporary file is made (default: beside the target; it must be
   * on the same file system). The sweep after a crash looks for temporaries
   * only in the folders it knows.
   */
  tempDir?: string;
  /** False for a file that can be made again (a cache, an index): no fsync, readers still never see a torn one. */
  durable?: boolean;
}

/**
 * Writes `data` to `path` atomically: readers see the old file or the whole
 * new one, never a part. The folder is made when missing, unless
 * `into: "existing"`: then a missing folder (one removed meanwhile too)
 * writes nothing and the answer is false.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  into: "made" | "existing" = "made",
  options: AtomicOptions = {},
): Promise<boolean> {
  const dir = dirname(path);
  if (into === "made") {
    await mkdir(dir, { recursive: true });
    if (options.tempDir) await mkdir(options.tempDir, { recursive: true });
  }
  const gone = (e: unknown) => into === "existing" && (e as NodeJS.ErrnoException)?.code === "ENOENT";
  const temp = join(options.tempDir ?? dir, `.${basename(path)}.tmp-${randomUUID()}`);
  let handle;
  try {
    handle = await open(temp, "wx");
  } catch (e) {
    if (gone(e)) return false;
    throw e;
  }
  try {
    await handle.writeFile(data);
    if (options.durable !== false) await handle.sync();
  } catch (e) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw e;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (e) {
    await unlink(temp).catch(() => {});
    if (gone(e)) return false;
    throw e;
  }
  if (options.durable !== false) await syncDir(dir);
  return true;
}
