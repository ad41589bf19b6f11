/**
 * Writes to one project, one at a time: an in-process queue per project, and
 * a lock file (`<slug>/.lock`, created exclusively, holding the owner's pid
 * and host) so that two node processes on one store cannot interleave. A
 * lock left by a process that no longer runs on this host is taken over.
 *
 * @module
 */
import { hostname } from "node:os";
import { open, readFile, unlink } from "node:fs/promises";
import process from "node:process";
import { join } from "node:path";
import { projectDir } from "./layout.ts";

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

async function takeFileLock(root: string, slug: string, waitMs: number): Promise<() => Promise<void>> {
  const path = join(projectDir(root, slug), ".lock");
  const me = `${process.pid}@${hostname()}`;
  const deadline = Date.now() + waitMs;
  let pause = 2;
  while (true) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(me);
      await handle.close();
      return async () => {
        if ((await readFile(path, "utf8").catch(() => "")) === me) await unlink(path).catch(() => {});
      };
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    const owner = await readFile(path, "utf8").catch(() => "");
    const [pid, host] = owner.split("@");
    if (owner !== "" && host === hostname() && !alive(Number(pid))) {
      await unlink(path).catch(() => {});
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeout(slug);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 50);
  }
}

/**
 * Runs `fn` while holding the write lock of project `slug` in the store at
 * `root`, within this process and across processes.
 *
 * @example
 * ```ts ignore
 * await withProjectLock("svc-data", "notes", async () => { ... });
 * ```
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
