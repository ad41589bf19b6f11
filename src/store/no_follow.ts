/**
 * Paths under the store resolved without following a symbolic link: every
 * component below the store's root (a project folder, `v<N>/`, `parts/`,
 * `contributions/`, `.sharing/`, the file itself) is looked at with `lstat`,
 * and the file is opened with `O_NOFOLLOW`. A link anywhere below the root
 * is refused as if nothing were there, and logged once a minute per path
 * (the root itself may be a link: that is where the operator put the
 * store). A link planted in the store would otherwise serve whatever it
 * points at: another project's parts, or a folder outside the store.
 *
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { linkInfoOf } from "../runtime/mod.ts";
import { manifestFile, partFile, projectDir } from "./layout.ts";

let report: ((line: string) => void) | null = null;
const reported = new Map<string, number>();
const REPORT_EVERY_MS = 60_000;

/**
 * Where refused links are told (the node's log); null to tell no one.
 *
 * @example
 * ```ts
 * import { reportRefusedLinks } from "./no_follow.ts";
 * reportRefusedLinks((line) => console.warn(line));
 * ```
 */
export function reportRefusedLinks(to: ((line: string) => void) | null): void {
  report = to;
}

function refused(root: string, link: string): void {
  const now = Date.now();
  const key = `${root}\0${link}`;
  if ((reported.get(key) ?? 0) > now - REPORT_EVERY_MS) return;
  if (reported.size >= 1000) reported.clear();
  reported.set(key, now);
  report?.(`store: ${link} is a symbolic link; refused (nothing in the store is read through a link)`);
}

/**
 * The first component of `path` below `root` that is a symbolic link (as a
 * path relative to `root`), or null when there is none; a component that
 * is not there ends the look (null: the caller finds nothing there).
 *
 * @example
 * ```ts
 * import { linkBelow } from "./no_follow.ts";
 * linkBelow("/no/such/store", "/no/such/store/cities/parts"); // null
 * ```
 */
export function linkBelow(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..")) return null;
  let at = root;
  let shown = "";
  for (const name of rel.split(sep)) {
    at = `${at}${sep}${name}`;
    shown = shown ? `${shown}/${name}` : name;
    let info;
    try {
      info = linkInfoOf(at);
    } catch {
      return null;
    }
    if (!info) return null;
    if (info.isSymlink) return shown;
  }
  return null;
}

/**
 * Whether `path` under `root` is reached through a symbolic link: then it is
 * logged, and the caller treats it as absent.
 *
 * @example
 * ```ts
 * import { refusedLink } from "./no_follow.ts";
 * refusedLink("/no/such/store", "/no/such/store/cities"); // false
 * ```
 */
export function refusedLink(root: string, path: string): boolean {
  const link = linkBelow(root, path);
  if (link === null) return false;
  refused(root, link);
  return true;
}

/**
 * Why version `version` of `slug` cannot be read without following a link
 * (its project folder, `v<N>/`, `manifest.json` or `parts/`), or null.
 *
 * @example
 * ```ts
 * import { versionLink } from "./no_follow.ts";
 * versionLink("/no/such/store", "cities", 1); // null
 * ```
 */
export function versionLink(root: string, slug: string, version: number): { reason: string } | null {
  // The part stack and provenance logs a local version is read from are in index/.
  const logs = join(projectDir(root, slug), "index", "parts.log");
  for (const path of [manifestFile(root, slug, version), partFile(root, slug, "0".repeat(64)), logs]) {
    const link = linkBelow(root, path);
    if (link !== null) {
      refused(root, link);
      return { reason: `${link} is a symbolic link` };
    }
  }
  return null;
}

/**
 * Whether the folder of project `slug` is a symbolic link (refused, logged).
 *
 * @example
 * ```ts
 * import { projectLinked } from "./no_follow.ts";
 * projectLinked("/no/such/store", "cities"); // false
 * ```
 */
export function projectLinked(root: string, slug: string): boolean {
  // The journal of versions, which says what the project holds, is in index/.
  return refusedLink(root, join(projectDir(root, slug), "index", "versions.log"));
}

/**
 * What a write to a project goes through: its lock, the folders its parts,
 * contributions, indexes, exports and kept footers go to, and its
 * `project.json`. A new version's folder is made by renaming a staging
 * folder the write itself made (a link in its place fails the rename), so
 * the versions (one folder each, tens of thousands in a project written to
 * for years) are not looked at: a look per write stays the same size
 * whatever the project's history.
 */
const WRITTEN_THROUGH = [".lock", "parts", "contributions", "index", "exports", "footers", "project.json"];

/**
 * The first entry a write to project `slug` goes through (its folder, or one
 * of {@linkcode WRITTEN_THROUGH}) that is a symbolic link, as a path relative
 * to the store (logged), or null: a write that would go through one (new
 * parts, versions, contributions, the indexes) is refused before it starts.
 *
 * @example
 * ```ts
 * import { projectLinks } from "./no_follow.ts";
 * projectLinks("/no/such/store", "cities"); // null
 * ```
 */
export function projectLinks(root: string, slug: string): string | null {
  const dir = projectDir(root, slug);
  let link = linkBelow(root, dir);
  for (let i = 0; link === null && i < WRITTEN_THROUGH.length; i++) {
    let info;
    try {
      info = linkInfoOf(join(dir, WRITTEN_THROUGH[i]));
    } catch { /* not to be looked at: not a link this write goes through */ }
    if (info?.isSymlink) link = `${slug}/${WRITTEN_THROUGH[i]}`;
  }
  if (link !== null) refused(root, link);
  return link;
}

/** A refused link, said as "not there" (`ENOENT`) to callers that treat an absent file as none. */
class LinkRefused extends Error {
  readonly code = "ENOENT";
}

/**
 * Opens `path` under `root` for reading without following a link at any
 * component below `root`; an error with code `ENOENT` when it is absent or
 * reached through a link (logged).
 *
 * @example
 * ```ts ignore
 * import { openNoFollow } from "./no_follow.ts";
 * const handle = await openNoFollow("svc-data", "svc-data/cities/project.json");
 * ```
 */
export async function openNoFollow(root: string, path: string): Promise<FileHandle> {
  if (refusedLink(root, path)) throw new LinkRefused(`${path} is reached through a symbolic link`);
  try {
    return await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    // A link at the last component, made since the look: refused the same way.
    if ((e as { code?: string }).code === "ELOOP") {
      refused(root, relative(root, path));
      throw new LinkRefused(`${path} is a symbolic link`);
    }
    throw e;
  }
}

/**
 * The text of the file `path` under `root`, read as {@linkcode openNoFollow}
 * opens it.
 *
 * @example
 * ```ts ignore
 * import { readTextNoFollow } from "./no_follow.ts";
 * const text = await readTextNoFollow("svc-data", "svc-data/cities/project.json");
 * ```
 */
export async function readTextNoFollow(root: string, path: string): Promise<string> {
  const handle = await openNoFollow(root, path);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
