/**
 * The version a query runs over, as the sandbox must see it: the real path
 * of every part, each checked again to be a regular file inside the store's
 * `parts/` folder, so a part swapped for a symlink can never allow a file
 * outside the store.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { lstat, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import type { StoredVersion } from "../store/mod.ts";
import { SqlError, type SqlSource } from "./pool.ts";

/**
 * The SQL source of `version` in the store whose real path is `realRoot`.
 *
 * @example
 * ```ts ignore
 * const source = await sqlSource(await realpath("svc-data"), version);
 * ```
 */
export async function sqlSource(realRoot: string, version: StoredVersion): Promise<SqlSource> {
  const folder = join(realRoot, version.slug, "parts") + sep;
  const parts: string[] = [];
  for (const part of version.parts) {
    const info = await lstat(part.path).catch(() => null);
    const real = info?.isFile() ? await realpath(part.path).catch(() => null) : null;
    if (!real || !real.startsWith(folder)) {
      throw new SqlError(404, `version ${version.version} of ${version.slug} is not whole on this node any more`);
    }
    parts.push(real);
  }
  const key = createHash("sha256")
    .update(`${version.slug}/${version.version}/${version.parts.map((p) => p.sha256).join(",")}`)
    .digest("hex");
  return { key, parts };
}
