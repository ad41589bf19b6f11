/**
 * The store as readers see it: projects, and the versions that are whole.
 * A version exists for readers only when its manifest parses and every listed
 * part is a regular file of exactly the listed size.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileStampOf, type Stamp, stampOf } from "../runtime/mod.ts";
import { isSlug } from "../wire/mod.ts";
import { type Checked, type StoredVersion, type VersionChecks, versionChecks } from "./_version_check.ts";
import { noteChecked, type ProjectState, summarize, type Summary } from "./_summary.ts";
import { journalFile } from "./journal.ts";
import { partFile, projectDir, projectFile, versionOfDirName } from "./layout.ts";
import type { ProjectMeta } from "./project_file.ts";
import { readProjectMeta } from "./project_file.ts";
import { projectLinked } from "./no_follow.ts";
import { LOOK_STANDS_MS, type RecentLooks, recentLooks, stands } from "./_recent_looks.ts";
import { storeWritesMade } from "./_writes_seen.ts";
import { leaseParts } from "./retention.ts";
import type { Family } from "../metrics/mod.ts";

export type { StoredVersion } from "./_version_check.ts";
export type { ProjectState } from "./_summary.ts";

/** A part as a reader leases it: its digest, size and path. */
export interface LeasedPart {
  /** SHA-256 of its bytes. */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
  /** Its file (see {@linkcode Store.partPath}). */
  path: string;
}

/** Read access to a store: a directory, or a bucket of an object store (`object_store.ts`). */
export interface Store {
  /**
   * The store directory; for a store in an object store, the local folder
   * where the parts being read are kept (laid out as a directory store's).
   */
  readonly root: string;
  /** Where the store is, as an operator names it: its directory, or `s3://bucket/prefix`. */
  readonly location: string;
  /**
   * Whether a part must be fetched before it is read (an object store):
   * readers then lease only the parts they read, not a whole version.
   */
  readonly remote: boolean;
  /** Slugs of the projects in the store, sorted. */
  slugs(): Promise<string[]>;
  /**
   * Every project in the store, by slug (cheaper than {@linkcode Store.project} for each of {@linkcode Store.slugs}):
   * kept while the store folder is as it was (store writers stamp it; see `_writes_seen.ts`), a second at most.
   */
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
  /**
   * Makes `parts` readable at their paths until the returned function is
   * called: a directory store keeps them from pruning; an object store
   * fetches the missing ones into its part cache and keeps them from
   * eviction (a busy or unavailable error when it cannot).
   */
  lease(parts: readonly LeasedPart[]): Promise<() => void>;
  /**
   * A URL that fetches a part straight from the store, without
   * credentials, for `seconds` (an object store's pre-signed GET); null
   * for a directory store, whose parts the node serves itself.
   */
  partUrl(slug: string, sha256: string, seconds: number): string | null;
  /** What the store counts for `/metrics` (an object store's part cache); none for a directory. */
  families(): Family[];
  /**
   * Files to read the Parquet footers of `parts` from (columns, row groups
   * and statistics, never data), in order: the parts themselves in a
   * directory; in an object store, local images of their footers made
   * with one ranged read each, so that statistics fetch no part.
   */
  footerPaths(parts: readonly { sha256: string; path: string }[]): Promise<string[]>;
}

/**
 * A folder's modification time is kept with coarse ticks: a listing is
 * reused only when the folder had not changed for this long when it was made.
 */
const SETTLE_MS = 1000;

/**
 * How long one `stat` of the store folder stands for the asks after it: a
 * store asked faster (a monitor polling `/healthz` at full speed, thirty
 * times a millisecond) shares one, where that `stat` was nearly half of each
 * check's own work. What another process writes shows within it; what this
 * process writes, at once.
 */
export const FOLDER_LOOK_MS = 1;

/** A store's caches, each kept until what it was read from changes. */
interface StoreState {
  /** The store folder. */
  readonly root: string;
  /** Monotonic milliseconds, which time how long looks stand. */
  readonly clock: () => number;
  /** Checked versions. */
  checks: VersionChecks;
  /** Project summaries, by slug. */
  summaries: Map<string, Summary>;
  /** Summaries being made now, by slug: who asks meanwhile waits for that one. */
  summarizing: Map<string, Promise<Summary>>;
  /** Whether each slug-named folder without `project.json` or a journal holds a project. */
  folders: Map<string, { key: string; settled: boolean; holds: boolean }>;
  /** The store folder's last stamp, taken at `at` (monotonic ms) after `writes` writes of this process. */
  folderLook: { at: number; writes: number; stamp: Stamp | null } | null;
  /** The store folder's slug-named subfolders. */
  listing: { key: string; settled: boolean; names: string[] } | null;
  /** What was last looked at for each project (its summary, its newest whole version), while it stands. */
  looks: RecentLooks;
  /** The last list of projects, kept while the store folder stands as it was (see `_writes_seen.ts`). */
  listed: { names: string[]; writes: number; at: number; projects: ProjectState[] } | null;
}

/**
 * Opens the store at `root` for reading. Manifests are parsed once and cached
 * by file identity; the parts of a version being read are checked again
 * every two seconds. A project's summary (its whole versions) is read from
 * its journal of versions, only what was appended since the last look, so
 * the summary routes cost the same at ten versions and at a hundred thousand.
 * `clock` (monotonic milliseconds) times how long a look at the disk stands.
 *
 * @example
 * ```ts
 * import { openStore } from "./store.ts";
 * const store = openStore("svc-data");
 * for (const slug of await store.slugs()) console.log(slug, (await store.project(slug))?.versions.newest);
 * ```
 */
export function openStore(root: string, clock: () => number = () => performance.now()): Store {
  const s: StoreState = {
    root,
    clock,
    checks: versionChecks(root),
    looks: recentLooks(root, clock),
    summaries: new Map(),
    summarizing: new Map(),
    folders: new Map(),
    folderLook: null,
    listing: null,
    listed: null,
  };
  return storeOver(s);
}

/**
 * Whether the folder `slug` holds a project: a `project.json` or a journal
 * says so at once; otherwise its listing does, kept until the folder changes.
 */
async function holds(s: StoreState, slug: string): Promise<boolean> {
  if (fileStampOf(projectFile(s.root, slug)) || fileStampOf(journalFile(s.root, slug))) return true;
  const asked = Date.now();
  const dir = join(s.root, slug);
  const stamp = stampOf(dir);
  if (!stamp) return false;
  const hit = s.folders.get(slug);
  if (hit && hit.settled && hit.key === stamp.key) return hit.holds;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    names = [];
  }
  const result = names.some((n) => versionOfDirName(n) !== null);
  s.folders.set(slug, { key: stamp.key, settled: asked - stamp.mtimeMs > SETTLE_MS, holds: result });
  return result;
}

/** The slug-named folders of the store, listed again only when the store folder changed. */
async function candidates(s: StoreState): Promise<string[]> {
  const asked = Date.now();
  const stamp = folderStamp(s);
  if (!stamp) return [];
  if (s.listing && s.listing.settled && s.listing.key === stamp.key) return s.listing.names;
  let entries;
  try {
    entries = await readdir(s.root, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = entries.filter((e) => e.isDirectory() && isSlug(e.name)).map((e) => e.name).sort();
  s.listing = { key: stamp.key, settled: asked - stamp.mtimeMs > SETTLE_MS, names };
  return names;
}

/** The store folder's stamp: the last one while it stands (see {@linkcode FOLDER_LOOK_MS}), else a new one. */
function folderStamp(s: StoreState): Stamp | null {
  const at = s.clock();
  const writes = storeWritesMade();
  const last = s.folderLook;
  if (last !== null && stands(last, at, writes, FOLDER_LOOK_MS)) return last.stamp;
  const stamp = stampOf(s.root);
  s.folderLook = { at, writes, stamp };
  return stamp;
}

/** The summary of `slug`, one making at a time. */
function summaryOf(s: StoreState, slug: string): Promise<Summary> {
  const running = s.summarizing.get(slug);
  if (running) return running;
  const made = summarize(s.root, s.checks, slug, s.summaries.get(slug)).then((summary) => {
    s.summaries.set(slug, summary);
    return summary;
  }).finally(() => s.summarizing.delete(slug));
  s.summarizing.set(slug, made);
  return made;
}

/** Checks a version and tells the project's summary what was found. */
async function checked(s: StoreState, slug: string, version: number): Promise<Checked | null> {
  const r = await s.checks.check(slug, version);
  // A version found not whole is set apart in the summary (made now if there is none yet, when the project is there).
  if ((r === null || "reason" in r) || s.summaries.get(slug)?.incomplete.has(version)) {
    const summary = s.summaries.get(slug) ?? (stampOf(projectDir(s.root, slug)) ? await summaryOf(s, slug) : null);
    if (summary) noteChecked(summary, slug, version, r);
  }
  return r;
}

/**
 * Every project in the store: the list kept while the store folder is as it was (writers in other processes stamp
 * it when done; see `_writes_seen.ts`), this process has not written, and a look stands; else each project looked at
 * as `project()` does (one `lstat` of its folder while nothing says it changed: whether the folder holds a project
 * changes the folder too, as its `project.json`, journal and versions are made in it).
 */
async function listProjects(s: StoreState): Promise<ProjectState[]> {
  const names = await candidates(s);
  const writes = storeWritesMade();
  const at = s.clock();
  const listed = s.listed;
  // `candidates` answers the kept listing's own array only while the store folder is unchanged.
  if (listed?.names === names && s.listing?.settled && stands(listed, at, writes, LOOK_STANDS_MS)) {
    return listed.projects.slice();
  }
  const projects: ProjectState[] = [];
  for (const name of names) {
    const project = await s.looks.of(
      "listed",
      name,
      async () => (await holds(s, name)) ? (await summaryOf(s, name)).result : null,
    );
    if (project) projects.push(project);
  }
  s.listed = { names, writes, at, projects };
  return projects.slice();
}

/** The store API over its state. */
function storeOver(s: StoreState): Store {
  /** The newest whole version of `slug`: newest first, a few at a time (the newest is whole unless something went wrong on disk). */
  const newestWhole = async (slug: string): Promise<StoredVersion | null> => {
    const project = await store.project(slug);
    if (!project) return null;
    for (let seen = 0; seen < project.versions.count;) {
      const batch = project.versions.newestFirst(seen + 16).slice(seen);
      for (const n of batch) {
        const r = await checked(s, slug, n);
        if (r && !("reason" in r)) return r;
      }
      seen += batch.length;
      if (batch.length === 0) break;
    }
    return null;
  };
  const store: Store = {
    root: s.root,
    location: s.root,
    remote: false,
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
    projects: () => listProjects(s),
    project(slug) {
      if (!isSlug(slug)) return Promise.resolve(null);
      return s.looks.of("project", slug, async () => {
        if (projectLinked(s.root, slug) || !stampOf(projectDir(s.root, slug))) return null;
        return (await summaryOf(s, slug)).result;
      });
    },
    async version(slug, version) {
      if (!isSlug(slug) || !Number.isSafeInteger(version) || version < 1) return null;
      const r = await checked(s, slug, version);
      return r && !("reason" in r) ? r : null;
    },
    latest(slug) {
      return isSlug(slug) ? s.looks.of("latest", slug, () => newestWhole(slug)) : Promise.resolve(null);
    },
    partPath(slug, sha256) {
      return partFile(s.root, slug, sha256);
    },
    lease(parts) {
      return Promise.resolve(leaseParts(parts.map((p) => p.path)));
    },
    partUrl: () => null,
    families: () => [],
    footerPaths: (parts) => Promise.resolve(parts.map((p) => p.path)),
  };
  return store;
}
