/**
 * What the node's version-keyed caches share (read copies, kept columns): a
 * version's name by its parts, and a least-recently-used map's touch.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { StoredVersion } from "../store/mod.ts";

/**
 * The name of `version`'s parts: the same parts, the same name, whatever
 * version number they carry.
 *
 * @example
 * ```ts ignore
 * import { partsDigest } from "./_parts_lru.ts";
 * partsDigest(version); // 40 hex digits
 * ```
 */
export function partsDigest(version: StoredVersion): string {
  const hash = createHash("sha256");
  for (const part of version.parts) hash.update(part.sha256);
  return hash.digest("hex").slice(0, 40);
}

/**
 * Sets `key` last in `map` (most recent), dropping the oldest past `most`.
 *
 * @example
 * ```ts
 * import { touch } from "./_parts_lru.ts";
 * const seen = new Map([["a", 1], ["b", 2]]);
 * touch(seen, "c", 3, 2); // seen holds b and c
 * ```
 */
export function touch<V>(map: Map<string, V>, key: string, value: V, most: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= most) break;
    map.delete(oldest);
  }
}
