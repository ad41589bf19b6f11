/**
 * Keys of a store in an object store, under the bucket's prefix: the same
 * relative names as the files of a directory store (`<slug>/project.json`,
 * `<slug>/parts/<sha256>.parquet`, `<slug>/v<N>/manifest.json`), and, for
 * the journal of versions, which an object store cannot append to, one
 * empty object per version, `<slug>/index/versions/<N>` with N padded to
 * fifteen digits so that keys sort as numbers do.
 *
 * @module
 */
import { isSha256, isSlug } from "../wire/mod.ts";

/** Digits a version number is padded to in a journal key (versions are at most fifteen digits). */
const JOURNAL_DIGITS = 15;

function slugOk(slug: string): string {
  if (!isSlug(slug)) throw new RangeError(`invalid project slug: ${JSON.stringify(slug)}`);
  return slug;
}

function versionOk(version: number): number {
  if (!Number.isSafeInteger(version) || version < 1 || String(version).length > JOURNAL_DIGITS) {
    throw new RangeError(`invalid version: ${version}`);
  }
  return version;
}

/**
 * `<slug>/project.json`.
 *
 * @example
 * ```ts
 * import { projectKey } from "./object_layout.ts";
 * projectKey("cities"); // "cities/project.json"
 * ```
 */
export function projectKey(slug: string): string {
  return `${slugOk(slug)}/project.json`;
}

/**
 * `<slug>/v<N>/manifest.json`: a version is committed when this object is written.
 *
 * @example
 * ```ts
 * import { manifestKey } from "./object_layout.ts";
 * manifestKey("cities", 2); // "cities/v2/manifest.json"
 * ```
 */
export function manifestKey(slug: string, version: number): string {
  return `${slugOk(slug)}/v${versionOk(version)}/manifest.json`;
}

/**
 * `<slug>/parts/<sha256>.parquet`.
 *
 * @example
 * ```ts
 * import { partKey } from "./object_layout.ts";
 * partKey("cities", "ab".repeat(32)); // "cities/parts/abab....parquet"
 * ```
 */
export function partKey(slug: string, sha256: string): string {
  if (!isSha256(sha256)) throw new RangeError(`invalid part digest: ${JSON.stringify(sha256)}`);
  return `${slugOk(slug)}/parts/${sha256}.parquet`;
}

/**
 * The folder of the journal of `slug`, `<slug>/index/versions/`.
 *
 * @example
 * ```ts
 * import { journalPrefix } from "./object_layout.ts";
 * journalPrefix("cities"); // "cities/index/versions/"
 * ```
 */
export function journalPrefix(slug: string): string {
  return `${slugOk(slug)}/index/versions/`;
}

/**
 * The journal's object of version `version`: its number padded, so keys list in order.
 *
 * @example
 * ```ts
 * import { journalKey } from "./object_layout.ts";
 * journalKey("cities", 12); // "cities/index/versions/000000000000012"
 * ```
 */
export function journalKey(slug: string, version: number): string {
  return `${journalPrefix(slug)}${String(versionOk(version)).padStart(JOURNAL_DIGITS, "0")}`;
}

/**
 * The version a journal key under `slug` names, or null for any other key.
 *
 * @example
 * ```ts
 * import { versionOfJournalKey } from "./object_layout.ts";
 * versionOfJournalKey("cities", "cities/index/versions/000000000000012"); // 12
 * versionOfJournalKey("cities", "cities/index/versions/12"); // null
 * ```
 */
export function versionOfJournalKey(slug: string, key: string): number | null {
  const prefix = journalPrefix(slug);
  if (!key.startsWith(prefix)) return null;
  const digits = key.slice(prefix.length);
  if (!/^[0-9]{15}$/.test(digits)) return null;
  const n = Number(digits);
  return n >= 1 ? n : null;
}
