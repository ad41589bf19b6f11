/**
 * Local data back to the origin (origin-wire 2.2, 2.3): a bundle's records
 * pushed as one contribution (`pushBundle`, `svc load FILE --push SLUG`),
 * and a node-local project's newest version promoted to the origin
 * (`promote`, `svc promote SLUG`). Both read the store, so they live here and
 * not in the remote client; the upload itself is a {@linkcode Pusher}'s (the
 * origin's client, `@svc/origin`).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rename, rm, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import process from "node:process";
import { Writable } from "node:stream";
import { NotFoundError, type Pusher, type PushProgress, type PushResult, SvcError, ValueError } from "../client/mod.ts";
import { jsonLines, openReadEngine } from "../parquet/mod.ts";
import { openStore, readProjectMeta } from "../store/mod.ts";
import { loadBundle, saveBundle } from "./bundle.ts";
import { readTar } from "./tar.ts";
import type { BundleHeader, TrustOptions } from "./types.ts";

/** How to push a bundle. */
export interface PushBundleOptions {
  /** Where the records come from; by default a line naming the bundle, its version, records and license. */
  sourceDeclaration?: string | null;
  /** The store the bundle is loaded into first (default `svc-data`). */
  store?: string;
  /** Push a paid bundle (needs the maintainer's rights on the origin). */
  allowPaid?: boolean;
  /** Wait for the screening (default true). */
  wait?: boolean;
  /** Parts sent at once (default 4). */
  workers?: number;
  /** Milliseconds to wait for the screening (default 900,000). */
  timeout?: number;
  /** The signature check of the load; none when absent. */
  verify?: TrustOptions | null;
  /** Hears how far the push is. */
  onProgress?: (progress: PushProgress) => void;
}

/** What a bundle's push did: the push's result and the bundle's version. */
export interface PushBundleResult extends PushResult {
  /** The version the records came from. */
  bundle: { project: string; version: number; records: number; parts: number; manifestSha256: string };
}

/** How to promote. */
export interface PromoteOptions {
  /** The origin's project the records go to (default: the same slug). */
  to?: string;
  /** The node's store (default `svc-data`). */
  store?: string;
  /** Where the records come from; by default a line naming the local project and version. */
  sourceDeclaration?: string | null;
  /** Wait for the screening (default true). */
  wait?: boolean;
  /** Parts sent at once (default 4). */
  workers?: number;
  /** Milliseconds to wait for the screening (default 900,000). */
  timeout?: number;
  /** Hears how far the push is. */
  onProgress?: (progress: PushProgress) => void;
  /** The environment checked for `SVC_VERIFY` (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** What a promote did. */
export interface PromoteResult extends PushBundleResult {
  /** The local project and version, the origin's project, and the records of the version. */
  promoted: { from: string; version: number; to: string; records: number };
}

const DEFAULT_STORE = "svc-data";

/**
 * The header of the bundle at `file`, read without checking the rest.
 */
export async function readBundleHeader(file: string): Promise<BundleHeader> {
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    for await (const entry of readTar(stream as AsyncIterable<Uint8Array>)) {
      if (entry.name !== "svc-bundle.json") break;
      const chunks: Uint8Array[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      return JSON.parse(new TextDecoder().decode(Buffer.concat(chunks))) as BundleHeader;
    }
  } finally {
    stream.destroy();
  }
  throw new ValueError(`${file} is not a bundle: it does not start with svc-bundle.json`);
}

/** Writes the records of `project` v`version` held in `root` as JSON lines to `out` (via a temporary name). */
async function writeRecords(root: string, project: string, version: number, out: string): Promise<void> {
  const stored = await openStore(root).version(project, version);
  if (!stored) throw new ValueError(`${project} v${version} is not whole in ${root}`);
  const engine = await openReadEngine(root);
  const temp = `${out}.tmp`;
  try {
    await jsonLines(engine, stored).pipeTo(Writable.toWeb(createWriteStream(temp)));
    await rename(temp, out);
  } catch (e) {
    await unlink(temp).catch(() => {});
    throw e;
  } finally {
    await engine.close();
  }
}

function importedFrom(file: string, h: BundleHeader): string {
  return (`Imported from bundle ${basename(file)}: ${h.project} v${h.version} (${h.records} records), ` +
    `saved ${h.savedAt} from ${h.source ?? "unknown"}; original license ${h.license}.`).slice(0, 500);
}

/**
 * Loads the bundle at `file` into `options.store` (checked as `loadBundle`
 * checks it), reads its records back from the parts (nulls left out,
 * `_extra` folded in) into `<file>.records.jsonl` (reused when newer than
 * the bundle, so an interrupted push resumes) and pushes them to project
 * `slug` on the origin `client` points at. A paid bundle is refused unless
 * `allowPaid`.
 */
export async function pushBundle(
  client: Pusher,
  file: string,
  slug: string,
  options: PushBundleOptions = {},
): Promise<PushBundleResult> {
  const header = await readBundleHeader(file);
  if (header.access === "paid" && !options.allowPaid) {
    throw new ValueError(
      `${header.project} is a paid project: republishing it needs the maintainer's rights, so pass allowPaid ` +
        "(--allow-paid) if you hold them",
    );
  }
  const store = options.store ?? DEFAULT_STORE;
  await loadBundle(file, store, { trust: options.verify ?? undefined });
  const records = `${file}.records.jsonl`;
  const fresh = await Promise.all([stat(records).catch(() => null), stat(file)])
    .then(([r, b]) => r !== null && r.mtimeMs > b.mtimeMs);
  if (!fresh) await writeRecords(store, header.project, header.version, records);
  let result: PushResult;
  try {
    result = await client.push(slug, records, {
      sourceDeclaration: options.sourceDeclaration ?? importedFrom(file, header),
      wait: options.wait ?? true,
      workers: options.workers,
      timeout: options.timeout,
      onProgress: options.onProgress,
    });
  } catch (e) {
    if (e instanceof NotFoundError) {
      throw new SvcError(
        `${slug} is not on the origin: create the project first (POST /projects with an agent key); the ` +
          `bundle's project.json holds the schema contract`,
        404,
        e.code,
        e.body,
      );
    }
    throw e;
  }
  await rm(records, { force: true });
  const { project, version, parts, manifestSha256 } = header;
  return { ...result, bundle: { project, version, records: header.records, parts, manifestSha256 } };
}

/**
 * Sends the newest version of the node-local project `slug` (one created on
 * a node, `local: true` in its `project.json`) from the store
 * `options.store` to project `options.to` (default `slug`) on the origin
 * `client` points at (with an agent key): bundled offline, then pushed as
 * {@linkcode pushBundle} does with no signature check (node versions are
 * unsigned, so `SVC_VERIFY` must be unset). Records already on the origin
 * are dropped as duplicates: a repeat promote sends only what is new.
 */
export async function promote(client: Pusher, slug: string, options: PromoteOptions = {}): Promise<PromoteResult> {
  const env = options.env ?? process.env;
  if (/^(1|true|yes)$/i.test(env.SVC_VERIFY ?? "")) {
    throw new ValueError(
      "promote sends a node's versions, which are unsigned, so it cannot run while SVC_VERIFY is set: unset it",
    );
  }
  const store = options.store ?? DEFAULT_STORE;
  if ((await readProjectMeta(store, slug))?.local !== true) {
    throw new ValueError(`${slug} in ${store} is not a local project: only projects created on a node are promoted`);
  }
  const latest = await openStore(store).latest(slug);
  if (!latest) throw new ValueError(`${slug} has no version in ${store} yet`);
  const v = latest.version;
  const to = options.to ?? slug;
  const tmp = await mkdtemp(join(tmpdir(), "svc-promote-"));
  try {
    const bundle = join(tmp, `${slug}-v${v}.svc`);
    const header = await saveBundle(store, slug, v, bundle);
    const result = await pushBundle(client, bundle, to, {
      store: join(tmp, "load"),
      sourceDeclaration: options.sourceDeclaration ??
        `Promoted from a SVC node: local project ${slug} v${v} (${header.records} records).`,
      wait: options.wait,
      workers: options.workers,
      timeout: options.timeout,
      onProgress: options.onProgress,
      verify: null,
    });
    return { ...result, promoted: { from: slug, version: v, to, records: header.records } };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
