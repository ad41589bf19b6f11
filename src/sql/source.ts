/**
 * The version a query runs over, as the sandbox must see it: the real path
 * of every part, each a regular file (never a symlink) inside the store's
 * real `<slug>/parts/` folder, so a part swapped for a link can never allow a
 * file outside the store. Worked out once per whole version the store hands
 * out (the store checks its parts again every two seconds and then hands out
 * a fresh one).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { lstat, realpath } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import type { StoredVersion } from "../store/mod.ts";
import type { SqlSource } from "./pool.ts";
import { NodeError } from "../errors/mod.ts";

const sources = new WeakMap<StoredVersion, Promise<SqlSource>>();

async function resolve(realRoot: string, version: StoredVersion): Promise<SqlSource> {
  const notWhole = () =>
    new NodeError("not-found", `version ${version.version} of ${version.slug} is not whole on this node any more`);
  const folder = await realpath(join(realRoot, version.slug, "parts")).catch(() => null);
  if (!folder || !folder.startsWith(realRoot + sep)) throw notWhole();
  const parts = await Promise.all(version.parts.map(async (part) => {
    const info = await lstat(part.path).catch(() => null);
    if (!info?.isFile()) throw notWhole();
    return join(folder, basename(part.path));
  }));
  const key = createHash("sha256")
    .update(`${version.slug}/${version.version}/${version.parts.map((p) => p.sha256).join(",")}`)
    .digest("hex");
  return { key, parts };
}

/**
 * The SQL source of `version` in the store whose real path is `realRoot`.
 */
export function sqlSource(realRoot: string, version: StoredVersion): Promise<SqlSource> {
  let source = sources.get(version);
  if (!source) {
    source = resolve(realRoot, version);
    sources.set(version, source);
    source.catch(() => sources.delete(version));
  }
  return source;
}
