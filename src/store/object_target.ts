/**
 * Writing copies into a store in an S3-compatible bucket. Parts land in a
 * local folder first, checked by size and SHA-256, and are uploaded under
 * their digest (`<slug>/parts/<sha256>.parquet`, an upload in parts that
 * appears whole or not at all when large), then `project.json`, then the
 * version's journal object, and the manifest last, written with
 * `If-None-Match: *`: the object store creates it only when no manifest has
 * that version's key, so of two writers committing one version one wins and
 * the other is told. A reader that lists the journal object before the
 * manifest is written sees the version as not yet whole and looks again.
 *
 * Servers that ignore `If-None-Match` write anyway: a probe at the first
 * write refuses to go on over such a server unless the operator says this
 * is the prefix's only writer (`singleWriter`).
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conditionalWrites, type S3Client } from "../objectstore/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import type { CopyTarget } from "./copy_target.ts";
import { journalKey, manifestKey, partKey, projectKey } from "./object_layout.ts";
import { type ObjectStore, openObjectStore } from "./object_store.ts";
import { parseVersion, type Version, versionDocument } from "./version.ts";
import type { ProjectMeta } from "./project_file.ts";
import { textOf } from "./_object_projects.ts";

/** How a target over a bucket writes. */
export interface ObjectTargetOptions {
  /** The operator says no other process writes under this prefix: go on over a server without conditional writes. */
  singleWriter?: boolean;
  /** How long what is read of the bucket is trusted (see `openObjectStore`). */
  refreshMs?: number;
  /** A local folder for parts being taken before they are uploaded (default: a new one in the temporary folder). */
  scratch?: string;
  /** The read side to use and tell of commits (a mirror's node's own, so it serves what it commits at once). */
  store?: ObjectStore;
}

/** The digests a manifest's text lists, in order, or null when it does not parse as a copy. */
function listed(text: string, slug: string, n: number): string | null {
  const parsed = parseVersion(text, slug, n);
  return "reason" in parsed || parsed.layout.kind !== "listed"
    ? null
    : parsed.layout.parts.map((p) => `${p.sha256}:${p.bytes}`).join();
}

/** One mutex per slug, in this process. */
function mutexes(): <T>(slug: string, fn: () => Promise<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>();
  return (slug, fn) => {
    const run = (queues.get(slug) ?? Promise.resolve()).catch(() => {}).then(fn);
    const tail = run.catch(() => {});
    queues.set(slug, tail);
    tail.then(() => queues.get(slug) === tail && queues.delete(slug));
    return run;
  };
}

/**
 * Whether the object store keeps conditional writes: probed once with a
 * scratch object; refuses, naming why, when it does not and the prefix is
 * not said to have one writer.
 */
function writesCheck(client: S3Client, options: ObjectTargetOptions): () => Promise<{ ifMatch: boolean }> {
  let probed: Promise<{ ifMatch: boolean }> | null = null;
  return () => {
    // A key of its own under the prefix, in no folder shared with another writer's probe: a gateway over a file
    // system (versitygw's posix) removes the folder an object's delete leaves empty, and a create racing it in that
    // folder is refused ("ExistingObjectIsDirectory"), which two nodes' first commits at once met.
    probed ??= conditionalWrites(client, `.svc-probe-${randomUUID()}`).then((kept) => {
      if (!kept.ifNoneMatch && !options.singleWriter) {
        throw new NodeError(
          "unavailable",
          `the object store at ${client.url()} ignores If-None-Match: * (a second create of one key went through), ` +
            "so two writers could both commit one version; refusing to write. If this is the only process writing " +
            "under the prefix (one mirror, nothing else), set SVC_S3_SINGLE_WRITER=1",
        );
      }
      return { ifMatch: kept.ifMatch };
    });
    probed.catch(() => (probed = null));
    return probed;
  };
}

/** `project.json` of `slug` in the bucket, or null. */
async function metaOf(client: S3Client, slug: string): Promise<ProjectMeta | null> {
  const found = await textOf(client, projectKey(slug));
  if (found === null) return null;
  try {
    const value = JSON.parse(found.text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function manifestText(version: Version): string {
  return stringifyExactJson(versionDocument(version), 2) + "\n";
}

/**
 * Commits `version` (its parts and `project.json` written): its journal
 * object, then its manifest, created only if no writer has created it.
 */
async function commitCopy(
  client: S3Client,
  store: ObjectStore,
  checkWrites: () => Promise<unknown>,
  version: Version,
): Promise<void> {
  await checkWrites();
  const { project: slug, version: n } = version;
  const text = manifestText(version);
  await client.put(journalKey(slug, n), new Uint8Array(0));
  try {
    await client.put(manifestKey(slug, n), text, { ifNoneMatch: "*", contentType: "application/json" });
  } catch (e) {
    if (!(e instanceof NodeError) || e.kind !== "conflict") throw e;
    // Another writer committed this version first: the same copy is as good as ours; another is a conflict.
    const held = await textOf(client, manifestKey(slug, n));
    if (held === null || listed(held.text, slug, n) !== listed(text, slug, n)) {
      throw new NodeError("conflict", `${slug} v${n} was committed meanwhile by another writer, with other parts`);
    }
  }
  await store.committed(slug, n);
}

/** Writes the manifest of a version held anew, over the one read (`If-Match`) where the server keeps that. */
async function rewriteCopy(
  client: S3Client,
  store: ObjectStore,
  checkWrites: () => Promise<{ ifMatch: boolean }>,
  version: Version,
): Promise<void> {
  const { project: slug, version: n } = version;
  const { ifMatch } = await checkWrites();
  const held = await client.head(manifestKey(slug, n));
  if (held === null) throw new NodeError("conflict", `${slug} v${n} is no longer in ${client.url()}`);
  await client.put(manifestKey(slug, n), manifestText(version), {
    contentType: "application/json",
    ...(ifMatch ? { ifMatch: held.etag } : {}),
  });
  await store.committed(slug, n);
}

async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) yield chunk as Uint8Array;
}

/**
 * The copy target of the bucket `client` reaches.
 *
 * @example
 * ```ts ignore
 * import { objectTarget } from "./object_target.ts";
 * import { S3Client, s3ConfigFrom } from "../objectstore/mod.ts";
 * const target = objectTarget(new S3Client(s3ConfigFrom("s3://datasets/svc")));
 * await target.checkWrites();
 * ```
 */
export function objectTarget(client: S3Client, options: ObjectTargetOptions = {}): CopyTarget {
  // Its parts are never read here: the folder they would be read from is named, not made.
  const store = options.store ??
    openObjectStore({ client, root: options.scratch ?? ".", cache: null, refreshMs: options.refreshMs });
  const locked = mutexes();
  const checkWrites = writesCheck(client, options);
  let scratch: Promise<string> | null = null;
  const scratchFolder = () =>
    scratch ??= options.scratch === undefined
      ? mkdtemp(join(tmpdir(), "svc-taking-"))
      : mkdir(options.scratch, { recursive: true }).then(() => options.scratch!);
  return {
    location: client.url().replace(/\/$/, ""),
    store,
    meta: (slug) => metaOf(client, slug),
    locked,
    async heldParts(slug) {
      const held = new Map<string, number | null>();
      for await (const object of client.list(`${slug}/parts/`)) {
        const m = /^[^/]+\/parts\/([0-9a-f]{64})\.parquet$/.exec(object.key);
        if (m) held.set(m[1], object.lastModified.getTime());
      }
      return held;
    },
    async partAge(slug, sha256) {
      return (await client.head(partKey(slug, sha256)))?.lastModified.getTime() ?? null;
    },
    async hasPart(slug, sha256, bytes) {
      return (await client.head(partKey(slug, sha256)))?.size === bytes;
    },
    scratch: scratchFolder,
    async partsFolder(slug) {
      const dir = join(await scratchFolder(), slug);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async placePart(slug, sha256, file) {
      try {
        await client.upload(partKey(slug, sha256), fileChunks(file));
      } finally {
        await rm(file, { force: true });
      }
    },
    flushParts: () => Promise.resolve(),
    async projectText(slug) {
      return (await textOf(client, projectKey(slug)))?.text ?? null;
    },
    async writeProject(slug, text) {
      await client.put(projectKey(slug), text, { contentType: "application/json" });
    },
    async manifestText(slug, n) {
      return (await textOf(client, manifestKey(slug, n)))?.text ?? null;
    },
    commit: (version) => commitCopy(client, store, checkWrites, version),
    rewrite: (version) => rewriteCopy(client, store, checkWrites, version),
    prune() {
      return Promise.reject(
        new NodeError("bad-request", "keeping only the newest versions is not done in an object store yet"),
      );
    },
    checkWrites: async () => void await checkWrites(),
  };
}
