/**
 * A store in an S3-compatible bucket, read side: the same layout as a
 * directory store under the bucket's prefix (see `object_layout.ts`), read
 * by nodes that hold no copy. Project files, journals and manifests are
 * kept in memory and looked at again once older than the refresh age (one
 * second by default), behind the readers' backs; parts are fetched into a
 * bounded local cache (`PartCache`) when a reader leases them, laid out in
 * the local folder as a directory store's (`<slug>/parts/<sha256>.parquet`),
 * so DuckDB and the SQL workers read them as they read any store.
 *
 * @module
 */
import { join, relative, sep } from "node:path";
import { objectSource, PartCache, S3Client, type S3Config } from "../objectstore/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { isSha256, isSlug } from "../wire/mod.ts";
import { partFile } from "./layout.ts";
import { partKey } from "./object_layout.ts";
import type { LeasedPart, Store } from "./store.ts";
import { type ObjectProjects, objectProjects } from "./_object_projects.ts";
import { NO_MANIFEST, type ObjectVersions, objectVersions } from "./_object_versions.ts";
import type { Checked } from "./_version_check.ts";
import { type FooterImages, footerImages } from "./_footer_images.ts";

/** How long what was read of the object store is trusted before it is looked at again, by default. */
export const DEFAULT_REFRESH_MS = 1000;
/** Parts fetched at once for one lease. */
const FETCHES_AT_ONCE = 8;

/** How to open a store in an object store. */
export interface ObjectStoreOptions {
  /** The client of its bucket and prefix. */
  client: S3Client;
  /** The local folder where the parts being read are kept (the part cache's folder). */
  root: string;
  /** The bounded cache of parts; null for a store that is only written to and has its manifests read. */
  cache: PartCache | null;
  /** How long what was read is trusted (default {@linkcode DEFAULT_REFRESH_MS}). */
  refreshMs?: number;
  /** Told of looks behind a reader's back that failed (what was known stays served). */
  warn?: (message: string) => void;
}

/** A store in an object store: a {@linkcode Store}, and what its writer tells it. */
export interface ObjectStore extends Store {
  /** The client of its bucket. */
  readonly client: S3Client;
  /** Says version `n` of `slug` was just committed (by this process): it is read again now. */
  committed(slug: string, n: number): Promise<void>;
}

/** The part a leased path names: `<root>/<slug>/parts/<sha256>.parquet`. */
function partOfPath(root: string, part: { sha256: string; path: string }): { slug: string; name: string } {
  const name = relative(root, part.path).split(sep).join("/");
  const [slug, folder, file, ...rest] = name.split("/");
  if (rest.length > 0 || folder !== "parts" || file !== `${part.sha256}.parquet` || !isSlug(slug)) {
    throw new NodeError("internal", `not a part of this store: ${part.path}`);
  }
  return { slug, name };
}

async function leaseAll(cache: PartCache, root: string, parts: readonly LeasedPart[]): Promise<() => void> {
  const releases: (() => void)[] = [];
  const releaseAll = () => releases.splice(0).forEach((release) => release());
  const queue = [...new Map(parts.map((p) => [p.path, p])).values()];
  let failure: unknown = null;
  const worker = async () => {
    for (let part = queue.shift(); part && failure === null; part = queue.shift()) {
      try {
        const { slug, name } = partOfPath(root, part);
        const lease = await cache.lease({
          sha256: part.sha256,
          size: part.bytes,
          name,
          key: partKey(slug, part.sha256),
        });
        releases.push(lease.release);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCHES_AT_ONCE, queue.length) }, worker));
  if (failure !== null) {
    releaseAll();
    throw failure;
  }
  return releaseAll;
}

/** Whether `r` is a whole version; tells `projects` what was found. */
function whole(projects: ObjectProjects, slug: string, n: number, r: Checked | null) {
  const reason = r === null ? NO_MANIFEST : "reason" in r ? r.reason : null;
  projects.note(slug, n, reason);
  return reason === null ? r as Exclude<Checked, { reason: string }> : null;
}

/** The newest whole version of `slug`, or null: the newest few first (set-apart ones among them), then older ones. */
async function newestWhole(projects: ObjectProjects, versions: ObjectVersions, slug: string) {
  const project = await projects.project(slug);
  if (!project) return null;
  // Versions set apart are looked at again first: a manifest being written when the journal was read is there now.
  const newest = project.versions.newestFirst(16);
  const set = project.incomplete.map((i) => i.version).filter((n) => n > (newest[newest.length - 1] ?? 0));
  for (const n of [...new Set([...set, ...newest])].sort((a, b) => b - a)) {
    const found = whole(projects, slug, n, await versions.check(slug, n));
    if (found) return found;
  }
  // The newest were not whole (something went wrong in the bucket): older ones, a few at a time.
  for (let seen = newest.length; seen < project.versions.count;) {
    const batch = project.versions.newestFirst(seen + 16).slice(seen);
    for (const n of batch) {
      const found = whole(projects, slug, n, await versions.check(slug, n));
      if (found) return found;
    }
    if (batch.length === 0) break;
    seen += batch.length;
  }
  return null;
}

/**
 * Opens the store in the bucket `options.client` reaches.
 *
 * @example
 * ```ts ignore
 * import { openObjectStore } from "./object_store.ts";
 * import { PartCache, S3Client, s3ConfigFrom, objectSource } from "../objectstore/mod.ts";
 * const client = new S3Client(s3ConfigFrom("s3://datasets/svc"));
 * const cache = await PartCache.open({ folder: "svc-cache", maxBytes: 2 ** 31, source: objectSource(client, () => "") });
 * const store = openObjectStore({ client, root: "svc-cache", cache });
 * console.log(await store.slugs());
 * ```
 */
export function openObjectStore(options: ObjectStoreOptions): ObjectStore {
  const { client, root, cache } = options;
  const ageMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
  // Said once a minute at most: an object store away for long must not fill the log with a line a second.
  let said = -Infinity;
  const failed = (e: unknown) => {
    if (Date.now() - said < 60_000) return;
    said = Date.now();
    options.warn?.(`the object store did not answer a look (what was read before is served): ${(e as Error)?.message}`);
  };
  const projects = objectProjects(client, ageMs, failed);
  const versions: ObjectVersions = objectVersions(client, root, ageMs, failed);
  let images: Promise<FooterImages> | null = null;
  const store: ObjectStore = {
    root,
    location: client.url().replace(/\/$/, ""),
    remote: true,
    client,
    slugs: () => projects.slugs(),
    async projects() {
      const out = [];
      for (const slug of await projects.slugs()) {
        const project = await projects.project(slug);
        if (project) out.push(project);
      }
      return out;
    },
    async meta(slug) {
      return (await projects.project(slug))?.meta ?? null;
    },
    project: (slug) => projects.project(slug),
    async version(slug, n) {
      if (!isSlug(slug) || !Number.isSafeInteger(n) || n < 1 || String(n).length > 15) return null;
      if (!(await projects.project(slug))) return null;
      return whole(projects, slug, n, await versions.check(slug, n));
    },
    latest: (slug) => newestWhole(projects, versions, slug),
    partPath(slug, sha256) {
      if (!isSha256(sha256)) throw new RangeError(`invalid part digest: ${JSON.stringify(sha256)}`);
      return partFile(root, slug, sha256);
    },
    lease(parts) {
      if (cache === null) return Promise.reject(new NodeError("internal", "this store reads no parts"));
      return leaseAll(cache, root, parts);
    },
    partUrl(slug, sha256, seconds) {
      return client.presignGet(partKey(slug, sha256), { expiresIn: seconds });
    },
    families: () => cache?.families() ?? [],
    async footerPaths(parts) {
      if (images === null) {
        const opening = footerImages(client, join(root, ".footers"));
        opening.catch(() => images === opening && (images = null));
        images = opening;
      }
      const made = await images;
      return await Promise.all(parts.map(async (p) => (await made.paths(partOfPath(root, p).slug, [p]))[0]));
    },
    async committed(slug, n) {
      versions.forget(slug, n);
      await projects.refresh(slug);
    },
  };
  return store;
}

/**
 * Opens the store in the bucket `config` names, for a node that reads it:
 * its part cache in the local folder `root`, at most `partCacheBytes`.
 *
 * @example
 * ```ts ignore
 * import { openObjectStoreNode } from "./object_store.ts";
 * import { s3ConfigFrom } from "../objectstore/mod.ts";
 * const store = await openObjectStoreNode({ config: s3ConfigFrom("s3://datasets/svc"), root: "svc-cache", partCacheBytes: 2 ** 31 });
 * ```
 */
export async function openObjectStoreNode(options: {
  config: S3Config;
  root: string;
  partCacheBytes: number;
  warn?: (message: string) => void;
}): Promise<ObjectStore> {
  const client = new S3Client(options.config);
  const source = objectSource(client, (sha256) => {
    throw new NodeError("internal", `part ${sha256} was asked for without its key`);
  });
  const cache = await PartCache.open({ folder: options.root, maxBytes: options.partCacheBytes, source });
  return openObjectStore({ client, root: options.root, cache, warn: options.warn });
}
