/**
 * How many bytes a store holds on disk: every regular file under it,
 * symlinks not followed.
 *
 * @module
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Bytes of the regular files under `root` (0 when it does not exist); files
 * that vanish while it walks are skipped. With `allocated`, the bytes the
 * disk holds for them (a sparse file counts its data, not its length).
 *
 * @example
 * ```ts
 * import { storeBytes } from "./usage.ts";
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.txt`, "four");
 * await storeBytes(root); // 4
 * ```
 */
export async function storeBytes(root: string, options: { allocated?: boolean } = {}): Promise<number> {
  let total = 0;
  const folders = [root];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile()) {
        const info = await lstat(path).catch(() => null);
        total += (options.allocated ? (info?.blocks ?? 0) * 512 : info?.size) ?? 0;
      }
    }
  }
  return total;
}
