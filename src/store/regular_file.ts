/**
 * Opening a file of the store for reading, never through a symlink.
 *
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { refusedLink } from "./no_follow.ts";

/**
 * Opens a regular file for reading without following a symlink at its last
 * component, nor at any component below `root` when it is given; null when
 * it is absent, reached through a symlink or not a regular file.
 *
 * @example
 * ```ts
 * import { openRegularFile } from "./regular_file.ts";
 * const file = await openRegularFile("svc-data/cities/parts/ab.parquet");
 * ```
 */
export async function openRegularFile(
  path: string,
  root?: string,
): Promise<{ handle: FileHandle; size: number } | null> {
  // Under `root`, no folder on the way may be a link either (a linked `parts/` or project folder).
  if (root !== undefined && refusedLink(root, path)) return null;
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
