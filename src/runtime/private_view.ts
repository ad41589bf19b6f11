/**
 * A child process's private view of the filesystem, where Linux allows one
 * without privileges: in a user and mount namespace of its own (`unshare`),
 * `/tmp` is a fresh folder holding the host folders it is given under
 * neutral names (`/tmp/store`, `/tmp/spill`), bound in. Paths the child
 * works out (DuckDB canonicalises every path it is given) then name those
 * folders, never where the host keeps them. Mounts stay inside the
 * namespace (private propagation, `unshare`'s default); the host sees only
 * an empty folder.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { tempRoot } from "./paths.ts";

/** Where the child sees its folders. */
export const VIEW_ROOT = "/tmp";

/** A private view: `base` is a host folder of the caller's (it gets an empty `root/`); `mounts` name → host folder. */
export interface PrivateView {
  /** A folder of the caller's, which the view's root is made in. */
  base: string;
  /** Folders the child sees at `/tmp/<name>`. */
  mounts: Record<string, string>;
}

// In the namespace the child is root (mapped to the caller's user): it mounts a tmpfs as the view's root, binds
// each folder in, puts the root over /tmp, and runs the command there.
const SCRIPT = `set -e
base=$1; shift
mount -t tmpfs -o size=1m,mode=0755 svc-view "$base/root"
while [ "$1" != "--" ]; do
  mkdir "$base/root/$1"
  mount --bind "$2" "$base/root/$1"
  shift 2
done
shift
mount --rbind "$base/root" ${VIEW_ROOT}
cd ${VIEW_ROOT}
exec "$@"`;

/**
 * The command that runs `command` inside `view`.
 *
 * @example
 * ```ts ignore
 * const [cmd, ...args] = inPrivateView(["deno", "run", "worker.ts"], { base, mounts: { store: "/srv/svc-data" } });
 * ```
 */
export function inPrivateView(command: string[], view: PrivateView): string[] {
  const pairs = Object.entries(view.mounts).flat();
  return [
    "unshare",
    "--user",
    "--map-root-user",
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    SCRIPT,
    "sh",
    view.base,
    ...pairs,
    "--",
    ...command,
  ];
}

/** Makes `view.base/root`, the folder the view's root is mounted on. */
export async function prepareView(base: string): Promise<void> {
  await mkdir(join(base, "root"), { recursive: true });
}

let available: Promise<boolean> | null = null;

/** Runs `command` to its end; true when it exits 0 within five seconds. */
function succeeds(command: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command[0], command.slice(1), { stdio: "ignore" });
    } catch {
      return resolve(false);
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.on("error", () => resolve(false));
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/** Whether this process runs from somewhere a view over /tmp would hide (the runtime, its cache, its modules). */
function runsFromTmp(paths: string[]): boolean {
  const own = [process.execPath, process.cwd()];
  for (const name of ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "NODE_PATH"]) {
    try {
      const value = process.env[name];
      if (value) own.push(value);
    } catch { /* the environment may not be readable: nothing to add */ }
  }
  return [...own, ...paths].some((p) => p === VIEW_ROOT || p.startsWith(`${VIEW_ROOT}/`));
}

/**
 * Whether children can be given a private view here: Linux, `unshare` and
 * unprivileged user namespaces, tried once for real; and none of `paths`
 * (the files the child runs) nor the runtime lives under `/tmp`, which the
 * view replaces.
 *
 * @example
 * ```ts ignore
 * if (await privateViewsWork([moduleFile])) spawn(...inPrivateView(command, view));
 * ```
 */
export async function privateViewsWork(paths: string[]): Promise<boolean> {
  if (process.platform !== "linux" || runsFromTmp(paths)) return false;
  available ??= (async () => {
    let base: string;
    try {
      base = await mkdtemp(join(tempRoot(), "svc-view-probe-"));
    } catch {
      return false;
    }
    try {
      await prepareView(base);
      await mkdir(join(base, "probe"));
      return await succeeds(inPrivateView(["/bin/sh", "-c", "test -d /tmp/probe"], {
        base,
        mounts: { probe: join(base, "probe") },
      }));
    } finally {
      await rm(base, { recursive: true, force: true }).catch(() => {});
    }
  })();
  return await available;
}
