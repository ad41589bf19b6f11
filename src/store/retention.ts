/**
 * Bounded growth of a store: keeping only the newest N versions of a
 * project (`--keep-versions`), deleting the parts no kept version lists
 * (never one a request is reading: those go at a later prune), and sweeping
 * what a crash leaves behind (temporary files, staging and pruned folders).
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { lstat, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { projectDir, versionOfDirName } from "./layout.ts";
import { parseVersion } from "./version.ts";
import { partStack } from "./part_stack.ts";
import { appendJournal } from "./journal.ts";
import { withProjectLock } from "./lock.ts";
import { readChange } from "./changes.ts";

/** Part files being read now (resolved paths, with how many readers). */
// Per process, not per store object: two nodes (or a node and a local command) over one store in one process must
// see each other's readers, and a part is named by its resolved path whichever object opened it.
const reading = new Map<string, number>();
/** Part files promised to holders of a signed URL (resolved paths), until when (ms since the epoch). */
const promised = new Map<string, number>();

/** Absolute part paths normalized, by the path given: each request leases every part of its version (200 a page). */
const resolvedPaths = new Map<string, string>();
const RESOLVED_MOST = 65_536;

function resolved(path: string): string {
  if (!isAbsolute(path)) return resolve(path);
  let full = resolvedPaths.get(path);
  if (full === undefined) {
    if (resolvedPaths.size >= RESOLVED_MOST) resolvedPaths.clear();
    full = resolve(path);
    resolvedPaths.set(path, full);
  }
  return full;
}

/**
 * Marks `paths` as being read until the returned function is called; a
 * prune meanwhile leaves them on disk.
 */
export function leaseParts(paths: readonly string[]): () => void {
  const held = paths.map(resolved);
  for (const p of held) reading.set(p, (reading.get(p) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const p of held) {
      const n = (reading.get(p) ?? 1) - 1;
      if (n <= 0) reading.delete(p);
      else reading.set(p, n);
    }
  };
}

/**
 * Runs `fn` with `paths` leased (see {@linkcode leaseParts}).
 */
export async function withLease<T>(paths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const release = leaseParts(paths);
  try {
    return await fn();
  } finally {
    release();
  }
}

/**
 * Keeps `paths` from pruning until `untilMs` (ms since the epoch), for URLs
 * handed out that stay valid until then (Delta Sharing's file URLs). One
 * entry per part, however many URLs name it: the latest promise wins.
 *
 * @example
 * ```ts
 * import { promiseParts } from "./retention.ts";
 * promiseParts(["svc-data/cities/parts/ab.parquet"], Date.now() + 3_600_000);
 * ```
 */
export function promiseParts(paths: readonly string[], untilMs: number): void {
  if (promised.size > 4096) {
    const now = Date.now();
    for (const [path, until] of promised) if (until <= now) promised.delete(path);
  }
  for (const p of paths) {
    const path = resolved(p);
    if ((promised.get(path) ?? 0) < untilMs) promised.set(path, untilMs);
  }
}

function inUse(path: string, now: number): boolean {
  if (reading.has(path)) return true;
  const until = promised.get(path);
  if (until === undefined) return false;
  if (until > now) return true;
  promised.delete(path);
  return false;
}

/** What a prune removed. */
export interface PruneResult {
  /** Version numbers removed. */
  versions: number[];
  /** Part files removed. */
  parts: number;
  /** Part files left because a request was reading them. */
  busy: number;
}

/** Temporary entries older than this in `exports/` are taken for abandoned (an export may stream for long). */
const EXPORT_TEMP_AGE_MS = 60 * 60 * 1000;

async function names(dir: string): Promise<string[]> {
  return await readdir(dir).catch(() => [] as string[]);
}

/**
 * Removes what a killed writer leaves in `slug`'s `index/` folder (where
 * writes make their temporary files), sparing statistics that may be being
 * written now: cheap enough for every write, whatever the project's size.
 * Call under the project's lock.
 *
 * @example
 * ```ts
 * import { sweepIndex } from "./retention.ts";
 * await sweepIndex("svc-data", "notes");
 * ```
 */
export async function sweepIndex(root: string, slug: string, now = Date.now()): Promise<number> {
  const index = join(projectDir(root, slug), "index");
  let removed = 0;
  for (const name of await names(index)) {
    if (!/^\..+\.tmp-/.test(name)) continue;
    const path = join(index, name);
    if (/^\.statistics\.json\.tmp-/.test(name)) {
      const info = await lstat(path).catch(() => null);
      if (!info || now - info.mtimeMs <= EXPORT_TEMP_AGE_MS) continue;
    }
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/**
 * Removes what a crash can leave in `slug`'s folder: temporary files of
 * atomic writes (`.<name>.tmp-*`), part temporaries, staging and pruned
 * version folders, and abandoned export and statistics temporaries. Call under the
 * project's lock.
 *
 * @example
 * ```ts
 * import { sweepProject } from "./retention.ts";
 * await sweepProject("svc-data", "notes");
 * ```
 */
export async function sweepProject(root: string, slug: string, now = Date.now()): Promise<number> {
  const dir = projectDir(root, slug);
  let removed = 0;
  const drop = async (path: string) => {
    await rm(path, { recursive: true, force: true });
    removed++;
  };
  for (const name of await names(dir)) {
    if (/^\.v\d+\.(tmp|pruned)/.test(name) || /^\..+\.tmp-/.test(name)) await drop(join(dir, name));
  }
  for (const sub of ["index", "contributions"]) {
    for (const name of await names(join(dir, sub))) {
      if (/^\..+\.tmp-/.test(name) && !/^\.statistics\.json\.tmp-/.test(name)) await drop(join(dir, sub, name));
    }
  }
  for (const name of await names(join(dir, "parts"))) {
    if (name.startsWith(".tmp-")) await drop(join(dir, "parts", name));
  }
  const stale = async (path: string) => {
    const info = await lstat(path).catch(() => null);
    if (info && now - info.mtimeMs > EXPORT_TEMP_AGE_MS) await drop(path);
  };
  for (const name of await names(join(dir, "exports"))) {
    if (name.includes(".tmp-")) await stale(join(dir, "exports", name));
  }
  // Statistics are written outside the lock (their temporaries in index/, above): only old ones are abandoned.
  for (const name of await names(join(dir, "index"))) {
    if (/^\.statistics\.json\.tmp-/.test(name)) await stale(join(dir, "index", name));
  }
  return removed;
}

/** The part digests a version folder's manifest lists (its change included), or null when it does not parse. */
async function listedParts(root: string, slug: string, version: number): Promise<string[] | null> {
  const text = await readFile(join(projectDir(root, slug), `v${version}`, "manifest.json"), "utf8").catch(() => null);
  if (text === null) return null;
  const parsed = parseVersion(text, slug, version);
  if ("reason" in parsed) return null;
  const layout = parsed.layout;
  const parts = layout.kind === "listed"
    ? layout.parts
    : await partStack(root, slug).parts(layout.top).catch(() => null);
  if (parts === null) return null;
  const change = parsed.change ?? await readChange(root, slug, version);
  return [...parts.map((p) => p.sha256), ...(change ? [change.sha256] : [])];
}

/**
 * Keeps the newest `keep` versions of `slug` (by number) and removes the
 * older ones, then every part file no remaining version lists, unless a
 * request is reading it. Call under the project's lock.
 *
 * @example
 * ```ts
 * import { pruneLocked } from "./retention.ts";
 * const { versions, parts } = await pruneLocked("svc-data", "notes", 3);
 * ```
 */
export async function pruneLocked(root: string, slug: string, keep: number): Promise<PruneResult> {
  const dir = projectDir(root, slug);
  const all = (await names(dir)).map(versionOfDirName).filter((n): n is number => n !== null).sort((a, b) => b - a);
  const kept = all.slice(0, keep);
  const gone = all.slice(keep);
  const listed = new Set<string>();
  for (const n of kept) {
    const parts = await listedParts(root, slug, n);
    // A kept version that cannot be read says nothing about which parts are free: touch no part.
    if (parts === null) return { versions: [], parts: 0, busy: 0 };
    for (const sha of parts) listed.add(sha);
  }
  // The journal first: a crash after it leaves folders no reader counts, which the next sweep removes.
  await appendJournal(root, slug, gone.map((n) => `-${n}`), true);
  for (const n of gone) {
    // Out of sight in one step, then deleted: a crash halfway leaves a folder the next sweep removes.
    const away = join(dir, `.v${n}.pruned-${randomUUID()}`);
    await rename(join(dir, `v${n}`), away);
    await rm(away, { recursive: true, force: true });
    for (const name of await names(join(dir, "exports"))) {
      if (name.startsWith(`v${n}-`)) await unlink(join(dir, "exports", name)).catch(() => {});
    }
  }
  let parts = 0;
  let busy = 0;
  if (gone.length > 0 || kept.length > 0) {
    for (const name of await names(join(dir, "parts"))) {
      const m = /^([0-9a-f]{64})\.parquet$/.exec(name);
      if (!m || listed.has(m[1])) continue;
      const path = join(dir, "parts", name);
      if (inUse(resolve(path), Date.now())) {
        busy++;
        continue;
      }
      await unlink(path).catch(() => {});
      parts++;
    }
  }
  return { versions: gone, parts, busy };
}

/**
 * {@linkcode pruneLocked} under the project's lock.
 */
export function prune(root: string, slug: string, keep: number): Promise<PruneResult> {
  return withProjectLock(root, slug, () => pruneLocked(root, slug, keep));
}

/**
 * {@linkcode prune}, telling `report` what went when anything did.
 */
export async function pruneReported(
  root: string,
  slug: string,
  keep: number,
  report: (line: string) => void,
): Promise<PruneResult> {
  const result = await prune(root, slug, keep);
  if (result.versions.length > 0 || result.parts > 0) {
    report(
      `pruned ${slug}: ${result.versions.length ? `v${result.versions.join(", v")}` : "no version"} ` +
        `(keeping the newest ${keep}); ${result.parts} part file(s) removed` +
        (result.busy ? `, ${result.busy} left while being read` : ""),
    );
  }
  return result;
}
