/**
 * The store as readers see it: projects, and the versions that are whole.
 * A version exists for readers only when its manifest parses and every listed
 * part is a regular file of exactly the listed size.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileStampOf, linkInfoOf, type Stamp, stampOf } from "../runtime/mod.ts";
import { type IncompleteVersion, isSlug } from "../wire/mod.ts";
import { manifestFile, partFile, projectDir, versionOfDirName } from "./layout.ts";
import { parseStoredManifest, type StoredManifest, type StoredPart } from "./manifest.ts";
import { isNotFound, type ProjectMeta, readProjectMeta } from "./project_file.ts";
import { projectLinked, versionLink } from "./no_follow.ts";

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
  /** Every project in the store, by slug (cheaper than {@linkcode Store.project} for each of {@linkcode Store.slugs}). */
  projects(): Promise<ProjectState[]>;
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
 * A folder's modification time is kept with coarse ticks: two changes within
 * one tick can leave the same time. A summary is reused only when the folder
 * had not changed for this long when the summary was made ("racy" otherwise).
 */
const SETTLE_MS = 1000;

/** What a summary learned of one version: whole with these parts, or why not. */
type VersionFacts = { parts: string[] } | { reason: string };

interface CachedSummary {
  /** Identity of the project folder when the summary was made. */
  key: string;
  /** Identity of its parts folder then. */
  partsKey: string;
  /** Whether the folders had been still long enough for the keys to be trusted. */
  settled: boolean;
  result: ProjectState | null;
  /** Per version, reused by the next summary: a version never changes once committed. */
  facts: Map<number, VersionFacts>;
}

/** A store's caches, each kept until what it was read from changes (see the rules above). */
interface StoreState {
  /** The store folder. */
  readonly root: string;
  /** Checked versions, by `<slug>/<version>`. */
  versions: Map<string, CachedVersion>;
  /** Versions being checked now, by `<slug>/<version>`: who asks meanwhile waits for that check. */
  checking: Map<string, { key: string; result: Promise<StoredVersion | { reason: string }> }>;
  /** Project summaries, by slug. */
  summaries: Map<string, CachedSummary>;
  /** Whether each slug-named folder holds a project. */
  folders: Map<string, { key: string; settled: boolean; holds: boolean }>;
  /** The store folder's slug-named subfolders. */
  listing: { key: string; settled: boolean; names: string[] } | null;
}

/**
 * Opens the store at `root` for reading. Manifests are parsed once and cached
 * by file identity; the parts of a version being read are checked again
 * every two seconds. A project's summary (its whole versions) is kept until
 * its folder or its parts folder changes: versions are immutable, so the
 * summary routes cost the same at ten versions and at ten thousand.
 *
 * @example
 * ```ts
 * import { openStore } from "./store.ts";
 * const store = openStore("svc-data");
 * for (const slug of await store.slugs()) console.log(slug, (await store.project(slug))?.versions);
 * ```
 */
export function openStore(root: string): Store {
  const s: StoreState = {
    root,
    versions: new Map(),
    checking: new Map(),
    summaries: new Map(),
    folders: new Map(),
    listing: null,
  };
  return storeOver(s);
}

async function versionDirs(s: StoreState, slug: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(projectDir(s.root, slug));
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

/** What a part file is: its size, or what is wrong with it. */
type PartSize = number | { reason: string };

/** The size of a part file (lstat, synchronous: see {@linkcode linkInfoOf}), or what is wrong with it. */
function partSize(s: StoreState, slug: string, sha256: string): PartSize {
  const info = linkInfoOf(partFile(s.root, slug, sha256));
  if (info === null) return { reason: `part ${sha256} is missing` };
  return info.isFile ? info.size : { reason: `part ${sha256} is not a regular file` };
}

async function check(
  s: StoreState,
  slug: string,
  version: number,
  sizeOf: (sha256: string) => PartSize = (sha) => partSize(s, slug, sha),
): Promise<StoredVersion | { reason: string } | null> {
  const file = manifestFile(s.root, slug, version);
  // Synchronous: asked on every data, manifest and export request, where an asynchronous stat cost 60 µs.
  const info = fileStampOf(file);
  if (info === null) return null;
  const key = `${info.key}:${info.size}`;
  const cacheKey = `${slug}/${version}`;
  const hit = s.versions.get(cacheKey);
  const now = Date.now();
  if (hit && hit.key === key && now - hit.checkedAt < RECHECK_MS) return hit.result;
  const linked = versionLink(s.root, slug, version);
  if (linked) return linked;
  // One look at the disk for all who ask meanwhile: a version of 200 parts is 200 lstats, and a busy node asks
  // hundreds of times a second (each asker checking on its own spent 8% of a node's time in lstat).
  const under = s.checking.get(cacheKey);
  if (under && under.key === key) return await under.result;
  const result = (async () => {
    const parsed = hit && hit.key === key && "manifest" in hit.result
      ? hit.result.manifest
      : parseStoredManifest(await readFile(file, "utf8"), slug, version);
    return "reason" in parsed ? parsed : checkParts(s, slug, version, parsed, new Date(info.mtimeMs), sizeOf);
  })();
  s.checking.set(cacheKey, { key, result });
  try {
    const checked = await result;
    s.versions.set(cacheKey, { key, checkedAt: now, result: checked });
    return checked;
  } finally {
    if (s.checking.get(cacheKey)?.result === result) s.checking.delete(cacheKey);
  }
}

function checkParts(
  s: StoreState,
  slug: string,
  version: number,
  manifest: StoredManifest,
  mtime: Date,
  sizeOf: (sha256: string) => PartSize,
): StoredVersion | { reason: string } {
  const parts = [];
  for (const part of manifest.parts) {
    const size = sizeOf(part.sha256);
    if (typeof size !== "number") return size;
    if (size !== part.bytes) {
      return { reason: `part ${part.sha256} has ${size} bytes, the manifest lists ${part.bytes}` };
    }
    parts.push({ ...part, path: partFile(s.root, slug, part.sha256) });
  }
  return { slug, version, manifest, parts, mtime };
}

/** Whether the folder `slug` holds a project, kept until the folder changes (listing it costs its size). */
async function holds(s: StoreState, slug: string, stamp = stampOf(join(s.root, slug))): Promise<boolean> {
  const asked = Date.now();
  const dir = join(s.root, slug);
  if (!stamp) return false;
  const hit = s.folders.get(slug);
  if (hit && hit.settled && hit.key === stamp.key) return hit.holds;
  const result = await holdsProject(dir);
  s.folders.set(slug, { key: stamp.key, settled: asked - stamp.mtimeMs > SETTLE_MS, holds: result });
  return result;
}

/** The slug-named folders of the store, listed again only when the store folder changed. */
async function candidates(s: StoreState): Promise<string[]> {
  const asked = Date.now();
  const stamp = stampOf(s.root);
  if (!stamp) return [];
  if (s.listing && s.listing.settled && s.listing.key === stamp.key) return s.listing.names;
  let entries;
  try {
    entries = await readdir(s.root, { withFileTypes: true });
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
  const names = entries.filter((e) => e.isDirectory() && isSlug(e.name)).map((e) => e.name).sort();
  s.listing = { key: stamp.key, settled: asked - stamp.mtimeMs > SETTLE_MS, names };
  return names;
}

/**
 * The summary of `slug`. Versions the previous summary knew are not read
 * again (versions are immutable); only new ones are, and when the parts
 * folder changed, the parts of known versions are looked up in its listing.
 */
async function summarize(s: StoreState, slug: string, previous: CachedSummary | undefined, partsKey: string) {
  const facts = new Map<number, VersionFacts>();
  const [meta, dirs] = await Promise.all([readProjectMeta(s.root, slug), versionDirs(s, slug)]);
  if (!meta && dirs.length === 0) return { result: null, facts };
  const partsChanged = previous?.partsKey !== partsKey;
  let present: Promise<Set<string>> | null = null;
  const listing = () =>
    present ??= readdir(join(projectDir(s.root, slug), "parts")).then((n) => new Set(n), () => new Set<string>());
  // Versions share parts: each part file is looked at once for the whole summary.
  const sizes = new Map<string, PartSize>();
  const sizeOf = (sha: string) => {
    let size = sizes.get(sha);
    if (size === undefined) sizes.set(sha, size = partSize(s, slug, sha));
    return size;
  };
  const versions: number[] = [];
  const incomplete: IncompleteVersion[] = [];
  for (const n of dirs) {
    let fact = previous?.facts.get(n);
    if (fact && "parts" in fact && partsChanged) {
      const names = await listing();
      const gone = fact.parts.find((sha) => !names.has(`${sha}.parquet`));
      if (gone) fact = { reason: `part ${gone} is missing` };
    } else if (!fact || "reason" in fact) {
      const r = await check(s, slug, n, sizeOf);
      fact = r === null ? { reason: "manifest.json is missing" } : "reason" in r ? r : {
        parts: r.parts.map((p) => p.sha256),
      };
    }
    facts.set(n, fact);
    if ("parts" in fact) versions.push(n);
    else incomplete.push({ project: slug, version: n, reason: fact.reason });
  }
  return { result: { slug, meta, versions, incomplete }, facts };
}

/** The summary of `slug`, whose folder's stamp is `self`. */
async function projectAt(s: StoreState, slug: string, self: Stamp | null): Promise<ProjectState | null> {
  const asked = Date.now();
  const parts = stampOf(join(projectDir(s.root, slug), "parts"));
  const key = self?.key ?? "-";
  const partsKey = parts?.key ?? "-";
  const hit = s.summaries.get(slug);
  if (hit && hit.settled && hit.key === key && hit.partsKey === partsKey) return hit.result;
  const { result, facts } = await summarize(s, slug, hit, partsKey);
  const changed = Math.max(self?.mtimeMs ?? 0, parts?.mtimeMs ?? 0);
  s.summaries.set(slug, { key, partsKey, settled: asked - changed > SETTLE_MS, result, facts });
  return result;
}

/** The store API over its state. */
function storeOver(s: StoreState): Store {
  const store: Store = {
    root: s.root,
    async slugs() {
      const out: string[] = [];
      for (const name of await candidates(s)) {
        if (await holds(s, name)) out.push(name);
      }
      return out;
    },
    meta(slug) {
      return isSlug(slug) ? readProjectMeta(s.root, slug) : Promise.resolve(null);
    },
    async projects() {
      const out: ProjectState[] = [];
      for (const name of await candidates(s)) {
        // One look at the folder serves both questions: is it a project, and is its summary still good.
        const stamp = stampOf(join(s.root, name));
        if (!(await holds(s, name, stamp))) continue;
        const project = await projectAt(s, name, stamp);
        if (project) out.push(project);
      }
      return out;
    },
    project(slug) {
      if (!isSlug(slug) || projectLinked(s.root, slug)) return Promise.resolve(null);
      return projectAt(s, slug, stampOf(projectDir(s.root, slug)));
    },
    async version(slug, version) {
      if (!isSlug(slug) || !Number.isSafeInteger(version) || version < 1) return null;
      const r = await check(s, slug, version);
      return r && !("reason" in r) ? r : null;
    },
    async latest(slug) {
      if (!isSlug(slug)) return null;
      for (const n of (await store.project(slug))?.versions ?? []) {
        const r = await check(s, slug, n);
        if (r && !("reason" in r)) return r;
      }
      return null;
    },
    partPath(slug, sha256) {
      return partFile(s.root, slug, sha256);
    },
  };
  return store;
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
