/**
 * Opening a file of the store for reading, never through a symlink.
 *
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/**
 * Opens a regular file for reading without following a symlink at its last
 * component; null when it is absent, a symlink or not a regular file.
 *
 * @example
 * ```ts
 * import { openRegularFile } from "./regular_file.ts";
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
