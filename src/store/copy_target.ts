/**
 * Where copies are written: what a pull, a follow or a load does to a
 * store, whichever kind it is. A directory store (here) writes files under
 * its project's lock; a store in an object store (`object_target.ts`)
 * writes objects, its commit a conditional create of the manifest. Both
 * take parts landed whole in a local folder first, checked by size and
 * SHA-256, then placed, and the manifest last.
 *
 * @module
 */
import { lstat, mkdir, readdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { syncDir, writeFileAtomic } from "./atomic.ts";
import { commitVersion } from "./commit_version.ts";
import { manifestFile, partFile, projectDir, projectFile } from "./layout.ts";
import { withProjectLock } from "./lock.ts";
import { type ProjectMeta, readProjectMeta } from "./project_file.ts";
import { pruneReported, type PruneResult } from "./retention.ts";
import { openStore, type Store } from "./store.ts";
import { type Version, versionDocument } from "./version.ts";
import { stringifyExactJson } from "../wire/mod.ts";

/** A store as its copies' writers use it. */
export interface CopyTarget {
  /** Where it is, as an operator names it (a folder, or `s3://bucket/prefix`). */
  readonly location: string;
  /** Its read side: what it holds. */
  readonly store: Store;
  /** `project.json` of `slug` as it is now, or null. */
  meta(slug: string): Promise<ProjectMeta | null>;
  /** Runs `fn` as the only writer of `slug` in this process (across processes too, for a directory). */
  locked<T>(slug: string, fn: () => Promise<T>): Promise<T>;
  /** The parts of `slug` held, each with when it was written (null when it costs a look to say). */
  heldParts(slug: string): Promise<Map<string, number | null>>;
  /** When the part `sha256` of `slug` was written, or null when it is not there. */
  partAge(slug: string, sha256: string): Promise<number | null>;
  /** Whether the part `sha256` of `slug` is held whole (`bytes` long). */
  hasPart(slug: string, sha256: string, bytes: number): Promise<boolean>;
  /** A local folder for files being taken (made when missing). */
  scratch(): Promise<string>;
  /** The local folder where parts of `slug` land, as `<sha256>.parquet` (made when missing). */
  partsFolder(slug: string): Promise<string>;
  /** Places the checked file `file` (`<sha256>.parquet`, landed whole) as a part of `slug`. */
  placePart(slug: string, sha256: string, file: string): Promise<void>;
  /** Makes the parts placed so far durable before a manifest names them. */
  flushParts(slug: string): Promise<void>;
  /** `project.json` of `slug` as text, or null. */
  projectText(slug: string): Promise<string | null>;
  /** Writes `project.json` of `slug`. */
  writeProject(slug: string, text: string): Promise<void>;
  /** The manifest of version `n` of `slug` as text, or null when it has none. */
  manifestText(slug: string, n: number): Promise<string | null>;
  /** Commits `version`, its parts placed: the manifest written last (a `conflict` when another writer won it). */
  commit(version: Version): Promise<void>;
  /** Writes the manifest of a version held already anew (a copy taking a signature that now verifies). */
  rewrite(version: Version): Promise<void>;
  /** Keeps the newest `keep` versions of `slug`, telling `report` what went. */
  prune(slug: string, keep: number, report: (line: string) => void): Promise<PruneResult>;
  /** Refuses to write when the store cannot keep two writers apart (a probe of an object store, once). */
  checkWrites(): Promise<void>;
}

/**
 * The copy target of the directory store at `root`.
 *
 * @example
 * ```ts
 * import { directoryTarget } from "./copy_target.ts";
 * const target = directoryTarget(await Deno.makeTempDir());
 * await target.meta("cities"); // null
 * ```
 */
export function directoryTarget(root: string): CopyTarget {
  const store = openStore(root);
  const ageOf = async (slug: string, sha256: string) => {
    const info = await lstat(partFile(root, slug, sha256)).catch(() => null);
    return info?.isFile() ? info.mtimeMs : null;
  };
  return {
    location: root,
    store,
    meta: (slug) => readProjectMeta(root, slug),
    async locked(slug, fn) {
      // The lock file lives in the project's folder.
      await mkdir(projectDir(root, slug), { recursive: true });
      return await withProjectLock(root, slug, fn);
    },
    async heldParts(slug) {
      const names = await readdir(join(projectDir(root, slug), "parts")).catch(() => [] as string[]);
      return new Map(names.filter((n) => /^[0-9a-f]{64}\.parquet$/.test(n)).map((n) => [n.slice(0, 64), null]));
    },
    partAge: ageOf,
    async hasPart(slug, sha256, bytes) {
      const info = await lstat(partFile(root, slug, sha256)).catch(() => null);
      return info !== null && info.isFile() && info.size === bytes;
    },
    async scratch() {
      await mkdir(root, { recursive: true });
      return root;
    },
    async partsFolder(slug) {
      const dir = join(projectDir(root, slug), "parts");
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async placePart(slug, sha256, file) {
      const final = partFile(root, slug, sha256);
      if (file !== final) await rename(file, final);
    },
    flushParts: (slug) => syncDir(join(projectDir(root, slug), "parts")),
    projectText: (slug) => readFile(projectFile(root, slug), "utf8").catch(() => null),
    writeProject: async (slug, text) => void await writeFileAtomic(projectFile(root, slug), text),
    async manifestText(slug, n) {
      try {
        return await readFile(manifestFile(root, slug, n), "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        return null;
      }
    },
    commit: (version) => commitVersion(root, version),
    rewrite: async (version) =>
      void await writeFileAtomic(
        manifestFile(root, version.project, version.version),
        stringifyExactJson(versionDocument(version), 2) + "\n",
      ),
    prune: (slug, keep, report) => pruneReported(root, slug, keep, report),
    checkWrites: () => Promise.resolve(),
  };
}
