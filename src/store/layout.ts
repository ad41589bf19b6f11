/**
 * Paths inside a store. Every path is built from a validated slug, version
 * number or digest under the store root, never from raw request text.
 *
 * @module
 */
import { join } from "node:path";
import { isSha256, isSlug } from "../wire/mod.ts";

/** The default store directory. */
export const DEFAULT_STORE = "svc-data";

function checkSlug(slug: string): string {
  if (!isSlug(slug)) throw new RangeError(`invalid project slug: ${JSON.stringify(slug)}`);
  return slug;
}

/**
 * The directory of one project.
 *
 * @example
 * ```ts
 * import { projectDir } from "./layout.ts";
 * projectDir("svc-data", "cities"); // "svc-data/cities"
 * ```
 */
export function projectDir(root: string, slug: string): string {
  return join(root, checkSlug(slug));
}

/**
 * `<store>/<slug>/project.json`.
 *
 * @example
 * ```ts
 * import { projectFile } from "./layout.ts";
 * projectFile("svc-data", "cities"); // "svc-data/cities/project.json"
 * ```
 */
export function projectFile(root: string, slug: string): string {
  return join(projectDir(root, slug), "project.json");
}

/**
 * `<store>/<slug>/v<N>/manifest.json`.
 *
 * @example
 * ```ts
 * import { manifestFile } from "./layout.ts";
 * manifestFile("svc-data", "cities", 2); // "svc-data/cities/v2/manifest.json"
 * ```
 */
export function manifestFile(root: string, slug: string, version: number): string {
  if (!Number.isSafeInteger(version) || version < 1) throw new RangeError(`invalid version: ${version}`);
  return join(projectDir(root, slug), `v${version}`, "manifest.json");
}

/**
 * `<store>/<slug>/parts/<sha256>.parquet`.
 *
 * @example
 * ```ts
 * import { partFile } from "./layout.ts";
 * partFile("svc-data", "cities", "ab".repeat(32)); // "svc-data/cities/parts/abab....parquet"
 * ```
 */
export function partFile(root: string, slug: string, sha256: string): string {
  if (!isSha256(sha256)) throw new RangeError(`invalid part digest: ${JSON.stringify(sha256)}`);
  return join(projectDir(root, slug), "parts", `${sha256}.parquet`);
}

/**
 * The version number a directory name stands for (`v12` is 12), or null.
 *
 * @example
 * ```ts
 * import { versionOfDirName } from "./layout.ts";
 * versionOfDirName("v12"); // 12
 * versionOfDirName("v012"); // null
 * ```
 */
export function versionOfDirName(name: string): number | null {
  const m = /^v([1-9][0-9]{0,14})$/.exec(name);
  return m ? Number(m[1]) : null;
}
