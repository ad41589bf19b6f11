/**
 * The store as readers see it: projects, and the versions that are whole.
 * A version exists for readers only when its manifest parses and every listed
 * part is a regular file of exactly the listed size.
 *
 * @module
 */
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { isSlug } from "../wire/slug.ts";
import type { IncompleteVersion } from "../wire/types.ts";
import { manifestFile, partFile, projectDir, versionOfDirName } from "./layout.ts";
import { parseStoredManifest, type StoredManifest, type StoredPart } from "./manifest.ts";
import { isNotFound, type ProjectMeta, readProjectMeta } from "./project_file.ts";

/** A whole version: its manifest and the paths of its parts. */
export interface StoredVersion {
  /** Project slug. */
  slug: string;
  /** Version number. */
  version: number;
  /** The manifest as stored. */
  manifest: StoredManifest;
  /** The parts in record order, each with its path on disk. */
  parts: (StoredPart & { path: string })[];
  /** When the manifest file was last written. */
  mtime: Date;
}

/** A project as the store holds it. */
export interface ProjectState {
  /** Project slug. */
  slug: string;
  /** `project.json`, or null when the copy has none. */
  meta: ProjectMeta | null;
  /** Whole versions, newest first. */
  versions: number[];
  /** Versions on disk that are not whole, and why. */
  incomplete: IncompleteVersion[];
}

/** Read access to a store directory. */
export interface Store {
  /** The store directory. */
  readonly root: string;
  /** Slugs of the projects in the store, sorted. */
  slugs(): Promise<string[]>;
  /** `project.json` of `slug`, or null when absent (cheaper than {@linkcode Store.project}). */
  meta(slug: string): Promise<ProjectMeta | null>;
  /** One project, or null when the store does not hold it (or the slug is invalid). */
  project(slug: string): Promise<ProjectState | null>;
  /** One whole version, or null when it is absent or not whole. */
  version(slug: string, version: number): Promise<StoredVersion | null>;
  /** The newest whole version, or null when there is none. */
  latest(slug: string): Promise<StoredVersion | null>;
  /** Path of a part file (the slug and digest are validated). */
  partPath(slug: string, sha256: string): string;
}

interface CachedVersion {
  key: string;
  checkedAt: number;
  result: StoredVersion | { reason: string };
}

/** How long a whole version is trusted before its parts are checked on disk again. */
const RECHECK_MS = 2000;

/**
 * Opens the store at `root` for reading. Manifests are parsed once and cached
 * by file identity; part sizes are checked again every two seconds.
 *
 * @example
 * ```ts
 * import { openStore } from "./store.ts";
 * const store = openStore("svc-data");
 * for (const slug of await store.slugs()) console.log(slug, (await store.project(slug))?.versions);
 * ```
 */
export function openStore(root: string): Store {
  const cache = new Map<string, CachedVersion>();

  async function versionDirs(slug: string): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(projectDir(root, slug));
    } catch (e) {
      if (isNotFound(e)) return [];
      throw e;
    }
    const out: number[] = [];
    for (const name of names) {
      const n = versionOfDirName(name);
      if (n !== null) out.push(n);
    }
    return out.sort((a, b) => b - a);
  }

  async function check(slug: string, version: number): Promise<StoredVersion | { reason: string } | null> {
    const file = manifestFile(root, slug, version);
    let info;
    try {
      info = await stat(file);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
    const key = `${info.mtimeMs}:${info.size}:${info.ino}`;
    const cacheKey = `${slug}/${version}`;
    const hit = cache.get(cacheKey);
    const now = Date.now();
    if (hit && hit.key === key && now - hit.checkedAt < RECHECK_MS) return hit.result;
    const parsed = hit && hit.key === key && "manifest" in hit.result
      ? hit.result.manifest
      : parseStoredManifest(await readFile(file, "utf8"), slug, version);
    const result = "reason" in parsed ? parsed : await checkParts(slug, version, parsed, info.mtime);
    cache.set(cacheKey, { key, checkedAt: now, result });
    return result;
  }

  async function checkParts(
    slug: string,
    version: number,
    manifest: StoredManifest,
    mtime: Date,
  ): Promise<StoredVersion | { reason: string }> {
    const parts = [];
    for (const part of manifest.parts) {
      const path = partFile(root, slug, part.sha256);
      let info;
      try {
        info = await lstat(path);
      } catch (e) {
        if (isNotFound(e)) return { reason: `part ${part.sha256} is missing` };
        throw e;
      }
      if (!info.isFile()) return { reason: `part ${part.sha256} is not a regular file` };
      if (info.size !== part.bytes) {
        return { reason: `part ${part.sha256} has ${info.size} bytes, the manifest lists ${part.bytes}` };
      }
      parts.push({ ...part, path });
    }
    return { slug, version, manifest, parts, mtime };
  }

  return {
    root,
    async slugs() {
      let entries;
      try {
        entries = await readdir(root, { withFileTypes: true });
      } catch (e) {
        if (isNotFound(e)) return [];
        throw e;
      }
      const out: string[] = [];
      for (const entry of entries) {
        if (!entry.isDirectory() || !isSlug(entry.name)) continue;
        if (await holdsProject(join(root, entry.name))) out.push(entry.name);
      }
      return out.sort();
    },
    meta(slug) {
      return isSlug(slug) ? readProjectMeta(root, slug) : Promise.resolve(null);
    },
    async project(slug) {
      if (!isSlug(slug)) return null;
      const [meta, dirs] = await Promise.all([readProjectMeta(root, slug), versionDirs(slug)]);
      if (!meta && dirs.length === 0) return null;
      const versions: number[] = [];
      const incomplete: IncompleteVersion[] = [];
      for (const n of dirs) {
        const r = await check(slug, n);
        if (r === null) incomplete.push({ project: slug, version: n, reason: "manifest.json is missing" });
        else if ("reason" in r) incomplete.push({ project: slug, version: n, reason: r.reason });
        else versions.push(n);
      }
      return { slug, meta, versions, incomplete };
    },
    async version(slug, version) {
      if (!isSlug(slug) || !Number.isSafeInteger(version) || version < 1) return null;
      const r = await check(slug, version);
      return r && !("reason" in r) ? r : null;
    },
    async latest(slug) {
      if (!isSlug(slug)) return null;
      for (const n of await versionDirs(slug)) {
        const r = await check(slug, n);
        if (r && !("reason" in r)) return r;
      }
      return null;
    },
    partPath(slug, sha256) {
      return partFile(root, slug, sha256);
    },
  };
}

async function holdsProject(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return false;
  }
  return names.includes("project.json") || names.some((n) => versionOfDirName(n) !== null);
}
