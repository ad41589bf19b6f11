/**
 * Writes to one project, one at a time: an in-process queue per project, and
 * a lock file (`<slug>/.lock`, created exclusively, holding its owner's pid
 * and host) so that two node processes on one store cannot interleave. A
 * lock left by a process that no longer runs on this host is taken over. Its
 * holder touches the file every second; one without an owner (its writer
 * died between creating and filling it), or whose owner this process may not
 * ask about (a node under narrowed Deno permissions may not signal
 * processes), is taken over once it has gone ten seconds untouched.
 *
 * @module
 */
import { hostname } from "node:os";
import { open, readFile, stat, unlink, utimes } from "node:fs/promises";
import process from "node:process";
import { join } from "node:path";
import { projectDir } from "./layout.ts";
import { wroteToStore } from "./_writes_seen.ts";

// Per process, keyed by the project's folder: writers in one process queue here; across processes the lock file
// (below) decides.
const queues = new Map<string, Promise<unknown>>();

/** How long to wait for another process's lock before giving up. */
export const LOCK_WAIT_MS = 30_000;

/** The project's lock is held by another process for too long. */
export class LockTimeout extends Error {
  /** @param slug the project */
  constructor(slug: string) {
    super(`project ${slug} is busy with another writer; try again shortly`);
    this.name = "LockTimeout";
  }
}

/**
 * Whether process `pid` runs: true, false, or null when this process may not
 * ask (a node under narrowed Deno permissions may not signal any process).
 */
function alive(pid: number): boolean | null {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === "ESRCH" ? false : code === "EPERM" ? true : null;
  }
}

/** A lock whose owner cannot be asked about is stale once its file has gone this long untouched. */
const ORPHAN_MS = 10_000;
/** How often a holder touches its lock file, so that a live one is never taken for stale. */
const HEARTBEAT_MS = 1_000;

async function createWithOwner(path: string, owner: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "wx");
  } catch (e) {
    if ((e as { code?: string }).code === "EEXIST") return false;
    throw e;
  }
  try {
    await handle.writeFile(owner);
  } catch (e) {
    // A lock without its owner would hold everyone off until it is old: take it back (a full disk does this).
    await handle.close().catch(() => {});
    await unlink(path).catch(() => {});
    throw e;
  }
  await handle.close();
  return true;
}

async function takeFileLock(root: string, slug: string, waitMs: number): Promise<() => Promise<void>> {
  const path = join(projectDir(root, slug), ".lock");
  const me = `${process.pid}@${hostname()}`;
  const deadline = Date.now() + waitMs;
  let pause = 2;
  while (true) {
    if (await createWithOwner(path, me)) {
      const heartbeat = setInterval(() => {
        const now = new Date();
        utimes(path, now, now).catch(() => {});
      }, HEARTBEAT_MS);
      return async () => {
        clearInterval(heartbeat);
        if ((await readFile(path, "utf8").catch(() => "")) === me) await unlink(path).catch(() => {});
      };
    }
    const owner = await readFile(path, "utf8").catch(() => null);
    if (owner !== null && await stale(path, owner)) {
      await unlink(path).catch(() => {});
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeout(slug);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 50);
  }
}

/**
 * Whether a lock held by `owner` can be taken over: its process is gone; or
 * it names none, or one this process may not ask about, and its file has
 * not been touched (its holder touches it every second) for ten seconds.
 */
async function stale(path: string, owner: string): Promise<boolean> {
  const m = /^(\d+)@(.+)$/.exec(owner);
  if (m && m[2] !== hostname()) return false;
  const running = m ? alive(Number(m[1])) : null;
  if (running !== null) return !running;
  const info = await stat(path).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > ORPHAN_MS;
}

/**
 * Runs `fn` while holding the write lock of project `slug` in the store at
 * `root`, within this process and across processes.
 */
export function withProjectLock<T>(
  root: string,
  slug: string,
  fn: () => Promise<T>,
  waitMs = LOCK_WAIT_MS,
): Promise<T> {
  const key = `${root}\0${slug}`;
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(async () => {
    const release = await takeFileLock(root, slug, waitMs);
    try {
      return await fn();
    } finally {
      wroteToStore(root);
      await release();
    }
  });
  const tail = run.catch(() => {});
  queues.set(key, tail);
  tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
