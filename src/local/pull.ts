/**
 * Pulling a version into a local store, in the layout a node serves: the
 * manifest, then the parts the store lacks (streamed, checked for size and
 * SHA-256 on the way, written under a temporary name and renamed into place,
 * a few at a time), then `project.json`, and the manifest last, so that a
 * killed pull leaves no half version and the next pull resumes from the
 * parts already whole. A part that fails its size or digest is never
 * retried: it is refused. What is asked for at all is `_pull_ask.ts`'s
 * decision: nothing when the version wanted is whole on disk, else the
 * manifest with the parts held named in `have`.
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { type FileHandle, open, readdir, rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { copyOf, type CopyTarget, copyTarget, type ListedPart } from "../store/mod.ts";
import type { ProjectDetail } from "../wire/mod.ts";
import { bodyChunks } from "./_body_chunks.ts";
import { heldParts, heldWhole, listedParts } from "./_pull_ask.ts";
import { checkVersion, takeVersion } from "./version_trust.ts";
import { isSlug, type Manifest, notASlug } from "../wire/mod.ts";
import {
  backoffMs,
  BundleError,
  type Client,
  DEFAULT_RETRIES,
  retryableStatus,
  SvcError,
  ValueError,
} from "../client/mod.ts";
import type { PullOptions, PullResult } from "./types.ts";
export type { PullOptions, PullResult } from "./types.ts";

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let at = 0; at < chunk.byteLength;) {
    at += (await file.write(chunk, at, chunk.byteLength - at)).bytesWritten;
  }
}

/**
 * Lands a part streamed whole into `temp`: flushed to disk, then renamed to
 * `final` unless the pull was stopped meanwhile; the temporary file is
 * removed on any failure.
 */
async function land(file: FileHandle, temp: string, final: string, stop: AbortSignal): Promise<void> {
  try {
    try {
      await file.sync();
    } finally {
      await file.close();
    }
    stop.throwIfAborted();
    await rename(temp, final);
  } catch (e) {
    await unlink(temp).catch(() => {});
    throw e;
  }
}

/**
 * Fetches one part into a temporary file, checking size and digest as it
 * streams; retries transfers, never bad content. It answers once the bytes
 * are checked, with the part's landing (flush and rename) under way, so that
 * the flush of one part overlaps the download of the next. Once `stop` is
 * aborted it ends soon, its temporary file removed, and never renames a part
 * into place.
 */
async function fetchPart(
  url: string,
  dir: string,
  part: { sha256: string; bytes: number },
  onBytes: (n: number) => void,
  stop: AbortSignal,
): Promise<{ landing: Promise<void> }> {
  for (let tried = 0;; tried++) {
    stop.throwIfAborted();
    const temp = join(dir, `.tmp-${randomUUID()}.parquet`);
    let received = 0;
    let file: FileHandle | null = null;
    try {
      let res: Response;
      try {
        const signal = AbortSignal.any([stop, AbortSignal.timeout(10 * 60_000)]);
        res = await fetch(url, { redirect: "follow", signal });
      } catch (e) {
        stop.throwIfAborted();
        throw new SvcError(`part ${part.sha256}: cannot be fetched (${(e as Error).message})`, 0, "network", null);
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new SvcError(
          `part ${part.sha256}: the server answered ${res.status}`,
          res.status,
          `http_${res.status}`,
          null,
        );
      }
      const hash = createHash("sha256");
      file = await open(temp, "wx");
      for await (const chunk of bodyChunks(res.body)) {
        received += chunk.byteLength;
        if (received > part.bytes) {
          throw new BundleError(
            `part ${part.sha256} is longer than the ${part.bytes} bytes listed`,
            0,
            "part_size",
            null,
          );
        }
        hash.update(chunk);
        // Written as read: gathering chunks into larger writes costs a copy, and measured slower.
        await writeAll(file, chunk);
        onBytes(chunk.byteLength);
      }
      if (received !== part.bytes) {
        throw new BundleError(
          `part ${part.sha256} has ${received} bytes, the manifest lists ${part.bytes}`,
          0,
          "part_size",
          null,
        );
      }
      if (hash.digest("hex") !== part.sha256) {
        throw new BundleError(`part ${part.sha256} does not match its SHA-256`, 0, "part_hash", null);
      }
      stop.throwIfAborted();
      const landing = land(file, temp, join(dir, `${part.sha256}.parquet`), stop);
      file = null;
      return { landing };
    } catch (e) {
      await file?.close().catch(() => {});
      await unlink(temp).catch(() => {});
      onBytes(-received);
      stop.throwIfAborted();
      const transient = e instanceof SvcError && !(e instanceof BundleError) &&
        (e.status === null || retryableStatus(e.status, true));
      if (!transient || tried >= DEFAULT_RETRIES) throw e;
      await sleep(backoffMs(tried, null), stop);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Refuses to pull over a project created on this store: it is not a copy of anything. */
export async function refuseLocal(store: string | CopyTarget, slug: string): Promise<void> {
  const target = copyTarget(store);
  if ((await target.meta(slug))?.local === true) {
    throw new ValueError(`${slug} is a local project in ${target.location}; a copy cannot be taken over it`);
  }
}

/**
 * Pulls `slug` (version `options.version`, else the newest) from `client`
 * into `options.store`.
 */
export async function pull(client: Client, slug: string, options: PullOptions): Promise<PullResult> {
  if (!isSlug(slug)) throw new ValueError(notASlug(slug));
  const target = options.target ?? copyTarget(options.store);
  await refuseLocal(target, slug);
  if (options.manifest) return await take(client, slug, target, options, options.manifest, null, []);
  const pinned = options.version;
  const held = pinned === undefined ? null : await heldWhole(target, slug, pinned, options);
  if (held) return held;
  const detail = await client.project(slug);
  if (pinned === undefined && detail.latestVersion > 0) {
    refuseBelow(client, slug, detail.latestVersion, options);
    const newest = await heldWhole(target, slug, detail.latestVersion, options);
    if (newest) {
      await target.locked(slug, async () => {
        await refuseLocal(target, slug);
        await writeProjectFile(target, slug, detail);
      });
      return newest;
    }
  }
  const have = await heldParts(target, slug, listedParts(detail, pinned ?? detail.latestVersion));
  const manifest = await client.manifest(slug, pinned, { have });
  return await take(client, slug, target, options, manifest, detail, have);
}

/** Refuses `version` when it is below `options.atLeast` (a follower's: following never goes back). */
function refuseBelow(client: Client, slug: string, version: number, options: PullOptions): void {
  const floor = options.atLeast;
  if (floor === undefined || version >= floor) return;
  throw new SvcError(
    `${client.baseUrl} offers ${slug} v${version}, below v${floor} held; kept v${floor}`,
    0,
    "rollback",
    null,
  );
}

/** Writes `project.json` from the source's `detail`, unless it says that already. */
async function writeProjectFile(target: CopyTarget, slug: string, detail: ProjectDetail): Promise<void> {
  const meta = JSON.stringify({ ...detail, local: false }, null, 2) + "\n";
  if ((await target.projectText(slug)) !== meta) await target.writeProject(slug, meta);
}

/** The parts of `parts` that `target` does not hold whole, each once (looked at a few at a time). */
async function missingParts(target: CopyTarget, slug: string, parts: readonly ListedPart[]): Promise<ListedPart[]> {
  const unique = [...new Map(parts.map((p) => [p.sha256, p])).values()];
  const held = new Array<boolean>(unique.length);
  let next = 0;
  const look = async () => {
    for (let i = next++; i < unique.length; i = next++) {
      held[i] = await target.hasPart(slug, unique[i].sha256, unique[i].bytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, unique.length) }, look));
  return unique.filter((_, i) => !held[i]);
}

/**
 * Takes the version `manifest` lists: the parts the store lacks, then
 * `project.json`, and the manifest last. `have` is what the manifest was
 * asked with: a part it lists without a URL that is not whole on disk after
 * all is asked for again.
 */
async function take(
  client: Client,
  slug: string,
  target: CopyTarget,
  options: PullOptions,
  manifest: Manifest,
  known: ProjectDetail | null,
  have: readonly string[],
): Promise<PullResult> {
  const { url: _u, ...rest } = manifest as Manifest & { url?: unknown };
  if (manifest.project !== slug || (options.version !== undefined && manifest.version !== options.version)) {
    throw new BundleError(
      `the manifest is for ${manifest.project} v${manifest.version}, not what was asked`,
      0,
      "manifest",
      null,
    );
  }
  refuseBelow(client, slug, manifest.version, options);
  const copy = copyOf(rest, { verified: false, taken: {} });
  if ("reason" in copy || copy.layout.kind !== "listed") {
    const reason = "reason" in copy ? copy.reason : "its parts are not listed";
    throw new BundleError(`the manifest is not usable: ${reason}`, 0, "manifest", null);
  }
  const stored = copy.layout;
  const verdict = options.trust
    ? await checkVersion({
      target,
      slug,
      asked: options.version ?? null,
      manifest: manifest as Record<string, unknown>,
      parts: stored.parts.map((p) => p.sha256),
    }, options.trust)
    : null;
  const detail = known ?? await client.project(slug);
  return await target.locked(slug, async () => {
    await refuseLocal(target, slug);
    const dir = await target.partsFolder(slug);
    for (const name of await readdir(dir)) if (name.startsWith(".tmp-")) await rm(join(dir, name), { force: true });
    const unique = await missingParts(target, slug, stored.parts);
    const total = unique.reduce((a, p) => a + p.bytes, 0);
    const urls = new Map(manifest.parts.map((p) => [p.sha256, p.url]));
    await askAgainFor(client, slug, manifest, unique, have, urls);
    const place = (sha256: string) => target.placePart(slug, sha256, join(dir, `${sha256}.parquet`));
    await fetchParts(unique, urls, dir, place, options, total);
    await target.flushParts(slug);
    const verified = verdict?.status === "verified";
    const taken = { pulledAt: new Date().toISOString(), downloaded: unique.length, source: client.baseUrl };
    const onDisk = { ...copy, origin: { ...copy.origin, verified, taken } };
    await writeProjectFile(target, slug, detail);
    await takeVersion(target, onDisk, { verified, required: options.trust?.required === true });
    const totals = manifest.totals as { records?: number } | undefined;
    return {
      slug,
      version: manifest.version,
      records: totals?.records ?? stored.parts.reduce((a, p) => a + (p.records ?? 0), 0),
      parts: stored.parts.length,
      downloaded: unique.length,
      bytes: total,
      signedBy: (manifest.signature as { origin?: string } | undefined)?.origin ?? null,
      signature: verdict?.status ?? null,
    };
  });
}

/**
 * Gives the parts still `missing` that came without a URL (named in `have`,
 * but not whole on disk after all: pruned meanwhile, or cut short) their
 * URLs: the manifest asked again, those parts left out of `have`, and it
 * must list the same parts.
 */
async function askAgainFor(
  client: Client,
  slug: string,
  manifest: Manifest,
  missing: readonly ListedPart[],
  have: readonly string[],
  urls: Map<string, string | undefined>,
): Promise<void> {
  const gone = new Set(missing.filter((p) => !urls.get(p.sha256) && have.includes(p.sha256)).map((p) => p.sha256));
  if (gone.size === 0) return;
  const again = await client.manifest(slug, manifest.version, { have: have.filter((sha) => !gone.has(sha)) });
  const listed = (m: Manifest) => m.parts.map((p) => `${p.sha256}:${p.bytes}`).join();
  if (again.version !== manifest.version || listed(again) !== listed(manifest)) {
    throw new BundleError(
      `${slug} v${manifest.version} was listed with other parts when asked again; pull again`,
      0,
      "manifest",
      null,
    );
  }
  for (const part of again.parts) if (gone.has(part.sha256)) urls.set(part.sha256, part.url);
}

/**
 * Downloads `parts` into `dir` with up to `options.workers` transfers at once,
 * each `place`d once landed (a store in an object store uploads it then).
 * The first failure stops every other transfer, and this answers only once
 * they have all ended and removed their temporary files: nothing may land in
 * the store after the project's lock is released.
 */
async function fetchParts(
  parts: ListedPart[],
  urls: Map<string, string | undefined>,
  dir: string,
  place: (sha256: string) => Promise<void>,
  options: PullOptions,
  total: number,
): Promise<void> {
  let done = 0;
  const queue = [...parts];
  const stop = new AbortController();
  const settle = (landing: Promise<void>) =>
    landing.catch((e) => {
      if (!stop.signal.aborted) stop.abort(e);
    });
  const workers = Array.from({ length: Math.max(1, Math.min(options.workers ?? 4, queue.length)) }, async () => {
    // At most one part per worker is being flushed while its next part downloads.
    let landing: Promise<void> = Promise.resolve();
    try {
      for (let part = queue.shift(); part && !stop.signal.aborted; part = queue.shift()) {
        const url = urls.get(part.sha256);
        if (!url) throw new BundleError(`part ${part.sha256} has no URL in the manifest`, 0, "manifest", null);
        const fetched = await fetchPart(url, dir, part, (n) => {
          done += n;
          options.onProgress?.(done, total);
        }, stop.signal);
        const sha256 = part.sha256;
        const next = settle(fetched.landing.then(() => stop.signal.aborted ? undefined : place(sha256)));
        await landing;
        landing = next;
      }
    } catch (e) {
      if (!stop.signal.aborted) stop.abort(e);
    } finally {
      await landing;
    }
  });
  await Promise.all(workers);
  if (stop.signal.aborted) throw stop.signal.reason;
}
