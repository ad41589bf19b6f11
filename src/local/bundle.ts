/**
 * Bundles: one version in one uncompressed tar (`svc-bundle.json`,
 * `project.json`, `manifest.json` with its signature, `parts/<sha256>.parquet`)
 * to carry where no network reaches. Loading checks every member before the
 * store changes: only the allowed names, each once; each part's size and
 * SHA-256; the header and the manifest agreeing. Then it lays the version
 * out as a pull would, manifest last.
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  type CopyTarget,
  copyTarget,
  openStore,
  publishManifest,
  readProjectMeta,
  type Version,
} from "../store/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import { VERSION } from "../version.ts";
import type { Client } from "../client/mod.ts";
import { pull, refuseLocal } from "./pull.ts";
import { checkVersion, takeVersion } from "./version_trust.ts";
import { TAR_END, tarHeader, tarPadding } from "./tar.ts";
import { BUNDLE_FORMAT, type CheckedBundle, checkedBundle, readMembers, refuse } from "./_bundle_check.ts";
export { BUNDLE_FORMAT } from "./_bundle_check.ts";
import type { BundleHeader, LoadResult, TrustOptions } from "./types.ts";
export type { BundleHeader, LoadResult } from "./types.ts";

/** The keys of a bundle's `project.json` a load keeps, as the reference does; any other is dropped. */
export const BUNDLE_PROJECT_KEYS: readonly string[] = [
  "slug",
  "title",
  "readme",
  "schemaDef",
  "license",
  "tags",
  "access",
  "visibility",
  "maintainer",
  "createdAt",
];

/** The keys of `meta` a loaded copy keeps (a bundle may carry anything; `local: true` must never come from one). */
function projectKeys(meta: unknown): Record<string, unknown> {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return {};
  const kept: Record<string, unknown> = {};
  for (const key of BUNDLE_PROJECT_KEYS) {
    if (Object.hasOwn(meta, key)) kept[key] = (meta as Record<string, unknown>)[key];
  }
  return kept;
}

/**
 * Writes version `version` (the newest when null) of `slug` from the store at
 * `root` into a bundle at `out` (written under a temporary name, then
 * renamed).
 */
export async function saveBundle(
  root: string,
  slug: string,
  version: number | null,
  out: string,
  options: {
    onProgress?: (doneBytes: number, totalBytes: number) => void;
    /** The time the bundle records as written (default now); a fixed one makes the bytes reproducible. */
    savedAt?: Date;
  } = {},
): Promise<BundleHeader> {
  const savedAt = options.savedAt ?? new Date();
  const store = openStore(root);
  const stored = version === null ? await store.latest(slug) : await store.version(slug, version);
  if (!stored) refuse(`${slug}${version === null ? "" : ` v${version}`} is not whole in ${root}`);
  const meta = (await readProjectMeta(root, slug)) ?? { slug };
  const manifestBytes = new TextEncoder().encode(
    stringifyExactJson(await publishManifest(stored, { partUrl: null, sources: true }), 2) + "\n",
  );
  const unique = [...new Map(stored.parts.map((p) => [p.sha256, p])).values()];
  const origin = stored.manifest.origin;
  const str = (v: unknown, fallback: string) => (typeof v === "string" ? v : fallback);
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    project: slug,
    version: stored.version,
    title: str(meta.title, slug),
    license: str(meta.license, "unknown"),
    access: str(meta.access, "public"),
    visibility: str(meta.visibility, "public"),
    records: stored.manifest.totals.records ?? stored.parts.reduce((a, p) => a + (p.records ?? 0), 0),
    parts: stored.parts.length,
    bytes: stored.parts.reduce((a, p) => a + p.bytes, 0),
    manifestSha256: createHash("sha256").update(manifestBytes).digest("hex"),
    savedAt: savedAt.toISOString(),
    // A node's own (local) project has no source in its manifests: the version was made here.
    source: origin?.kind === "copy" && typeof origin.taken.source === "string"
      ? origin.taken.source
      : meta.local === true
      ? "local"
      : null,
    sdk: `svc-sdk/${VERSION}`,
  };
  await mkdir(dirname(out), { recursive: true });
  const temp = `${out}.tmp-${randomUUID()}`;
  const file = await open(temp, "wx");
  const now = Math.floor(savedAt.getTime() / 1000);
  try {
    const member = async (name: string, bytes: Uint8Array) => {
      await file.write(tarHeader(name, bytes.length, now));
      await file.write(bytes);
      await file.write(tarPadding(bytes.length));
    };
    await member("svc-bundle.json", new TextEncoder().encode(JSON.stringify(header, null, 2) + "\n"));
    await member("project.json", new TextEncoder().encode(JSON.stringify(meta, null, 2) + "\n"));
    await member("manifest.json", manifestBytes);
    const total = unique.reduce((a, p) => a + p.bytes, 0);
    let done = 0;
    for (const part of unique) {
      await file.write(tarHeader(`parts/${part.sha256}.parquet`, part.bytes, now));
      for await (const chunk of createReadStream(part.path, { highWaterMark: 1 << 20 })) {
        await file.write(chunk as Uint8Array);
        done += (chunk as Uint8Array).length;
        options.onProgress?.(done, total);
      }
      await file.write(tarPadding(part.bytes));
    }
    await file.write(TAR_END);
    await file.sync();
    await file.close();
    await rename(temp, out);
  } catch (e) {
    await file.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw e;
  }
  return header;
}

/**
 * Saves version `version` (the newest held when null) of `slug`, after
 * `pullMissing` brought it into the store when it was not held (it resolves
 * with the version it pulled); the bundle goes to `output`, by default
 * `./<slug>-v<N>.svc`.
 */
export async function saveHeld(
  root: string,
  slug: string,
  version: number | null,
  output: string | null,
  pullMissing: (version: number | null) => Promise<number>,
  options: { onProgress?: (doneBytes: number, totalBytes: number) => void } = {},
): Promise<BundleHeader & { file: string }> {
  const store = openStore(root);
  const held = version === null ? await store.latest(slug) : await store.version(slug, version);
  const n = held?.version ?? await pullMissing(version);
  const file = output ?? `${slug}-v${n}.svc`;
  return { ...(await saveBundle(root, slug, n, file, options)), file };
}

/**
 * Writes version `options.version` (default: the newest held) of `slug` from
 * the store `options.store` as a bundle at `options.output` (default
 * `./<slug>-v<N>.svc`), pulling it from `client` first when the store does
 * not hold it (`options.workers` parts at once, default 4).
 */
export async function save(
  client: Client,
  slug: string,
  options: {
    store: string;
    version?: number;
    output?: string;
    workers?: number;
    onProgress?: (doneBytes: number, totalBytes: number) => void;
  },
): Promise<BundleHeader & { file: string }> {
  const pullMissing = async (version: number | null) =>
    (await pull(client, slug, { store: options.store, version: version ?? undefined, workers: options.workers }))
      .version;
  return await saveHeld(options.store, slug, options.version ?? null, options.output ?? null, pullMissing, {
    onProgress: options.onProgress,
  });
}

/**
 * Checks the bundle at `file` member by member and, unless `check`, lays its
 * version out in the store `store` (a directory, or `s3://bucket/prefix`).
 */
export async function loadBundle(
  file: string,
  store: string,
  options: {
    check?: boolean;
    /** The signature check; an empty `origin` means the one the signature names. */
    trust?: TrustOptions;
    onProgress?: (doneBytes: number, totalBytes: number) => void;
  } = {},
): Promise<LoadResult> {
  const target = copyTarget(store);
  const staging = options.check ? "" : join(await target.scratch(), `.load-${randomUUID()}`);
  if (!options.check) await mkdir(staging, { recursive: true });
  try {
    const members = await readMembers(file, options.check ? null : staging, options.onProgress);
    const bundle = checkedBundle(members);
    const { header, raw, copy, parts } = bundle;
    const slug = header.project;
    await refuseLocal(target, slug);
    const named = (raw.signature as { origin?: unknown } | undefined)?.origin;
    const verdict = options.trust
      ? await checkVersion({
        target,
        slug,
        asked: header.version,
        manifest: raw,
        parts: copy.layout.parts.map((p) => p.sha256),
        dryRun: options.check,
      }, { ...options.trust, origin: options.trust.origin || (typeof named === "string" ? named : "") })
      : null;
    let newParts = 0;
    for (const [sha, bytes] of parts) if (!(await target.hasPart(slug, sha, bytes))) newParts++;
    const signature = verdict?.status ?? null;
    if (options.check) return { header, newParts, written: false, signature };
    await layOut(target, staging, bundle, {
      file,
      verified: signature === "verified",
      required: options.trust?.required,
    });
    return { header, newParts, written: true, signature };
  } finally {
    if (staging !== "") await rm(staging, { recursive: true, force: true });
  }
}

/** Moves a checked bundle's parts from `staging` into the store, then its project file, then its version. */
async function layOut(
  target: CopyTarget,
  staging: string,
  bundle: CheckedBundle,
  how: { file: string; verified: boolean; required?: boolean },
): Promise<void> {
  const { header, meta, copy, parts } = bundle;
  const slug = header.project;
  await target.partsFolder(slug);
  await target.locked(slug, async () => {
    for (const sha of parts.keys()) await target.placePart(slug, sha, join(staging, `${sha}.parquet`));
    await target.flushParts(slug);
    await target.writeProject(slug, JSON.stringify({ ...projectKeys(meta), slug, local: false }, null, 2) + "\n");
    const taken = { loaded: true, loadedAt: new Date().toISOString(), loadedFrom: how.file };
    const onDisk: Version = {
      ...copy,
      origin: { kind: "copy", published: copy.origin.published, verified: how.verified, taken },
    };
    await takeVersion(target, onDisk, { verified: how.verified, required: how.required === true });
  });
}
