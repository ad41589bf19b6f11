/**
 * A child process's private view of the filesystem, where Linux allows one
 * without privileges: in a user and mount namespace of its own (`unshare`),
 * `/tmp` is a fresh folder holding the host folders it is given under
 * neutral names (`/tmp/store`, `/tmp/spill`), bound in. Paths the child
 * works out (DuckDB canonicalises every path it is given) then name those
 * folders, never where the host keeps them. Folders directly in `/tmp`
 * that hold the runtime or the child's code (a checkout in `/tmp/ci`, say)
 * are bound back at their own place, so the child still finds its files.
 * Mounts stay inside the namespace (private propagation, `unshare`'s
 * default); the host sees only an empty folder.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
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
  /** Names of host folders directly in `/tmp` the child still sees there (see {@linkcode keptTmpFolders}). */
  keep?: string[];
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
 * Where `unshare` is: `/usr/bin/unshare` (util-linux's place), else
 * `/bin/unshare`, else null. A process that may not look (a narrowed node)
 * takes `/usr/bin/unshare`, the path its launcher gave it leave to run: it
 * is named by its path because such a process may not read `PATH` either.
 *
 * @example
 * ```ts
 * import { unsharePath } from "./private_view.ts";
 * unsharePath(); // "/usr/bin/unshare" on Debian
 * ```
 */
export function unsharePath(): string | null {
  let looked = false;
  for (const path of ["/usr/bin/unshare", "/bin/unshare"]) {
    try {
      if (existsSync(path)) return path;
      looked = true;
    } catch { /* no leave to look */ }
  }
  return looked ? null : "/usr/bin/unshare";
}

/**
 * The command that runs `command` inside `view`.
 */
export function inPrivateView(command: string[], view: PrivateView): string[] {
  const pairs = [...Object.entries(view.mounts), ...(view.keep ?? []).map((name) => [name, `${VIEW_ROOT}/${name}`])]
    .flat();
  return [
    unsharePath() ?? "unshare",
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

/** Runs `command` to its end; true when it exits 0 within five seconds. */
function succeeds(command: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      // No environment: a narrowed node may not read its own to pass it on.
      child = spawn(command[0], command.slice(1), { stdio: "ignore", env: {} });
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

/** Where this process runs from: the runtime, its working folder, its caches and modules. */
function ownPaths(): string[] {
  const own = [process.execPath, process.cwd()];
  for (const name of ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "NODE_PATH"]) {
    try {
      const value = process.env[name];
      if (value) own.push(value);
    } catch { /* the environment may not be readable: nothing to add */ }
  }
  return own;
}

/**
 * The names of the folders directly in `/tmp` that hold `paths` (the files
 * the child runs) or this process's runtime, which a view must bind back at
 * their place; null when one cannot be (`/tmp` itself, a file directly in
 * it, or a name the view's own mounts take).
 *
 * @example
 * ```ts
 * import { keptTmpFolders } from "./private_view.ts";
 * keptTmpFolders(["/tmp/ci/src/sql/worker_main.ts"]); // ["ci"] (when the runtime lives outside /tmp)
 * ```
 */
export function keptTmpFolders(paths: string[], taken: string[] = ["store", "spill"]): string[] | null {
  const names = new Set<string>();
  for (const p of [...ownPaths(), ...paths]) {
    if (p === VIEW_ROOT || p === `${VIEW_ROOT}/`) return null;
    if (!p.startsWith(`${VIEW_ROOT}/`)) continue;
    const [name, ...rest] = p.slice(VIEW_ROOT.length + 1).split("/");
    if (rest.length === 0 || name === "" || name === "." || name === ".." || taken.includes(name)) return null;
    names.add(name);
  }
  return [...names].sort();
}

/** Probe answers by the folders kept from `/tmp`: a yes is kept for good, a no until asked `again`. */
const probes = new Map<string, Promise<boolean>>();

/** Tries for real, once, whether a child gets a view keeping `keep`. */
async function probe(keep: string[]): Promise<boolean> {
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
      keep,
    }));
  } finally {
    await rm(base, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * Whether children can be given a private view here: Linux, `unshare` and
 * unprivileged user namespaces, tried for real, and what the child runs
 * from can be kept in view ({@linkcode keptTmpFolders}). A yes is kept; a
 * no is tried again when `again` is set (a worker about to start), so that
 * what stood in the way (a mount below a folder kept from `/tmp`) going
 * away gives the next worker its view back.
 */
export async function privateViewsWork(paths: string[], again = false): Promise<boolean> {
  const keep = keptTmpFolders(paths);
  if (process.platform !== "linux" || keep === null) return false;
  const key = keep.join("/");
  let answer = probes.get(key);
  if (answer !== undefined && again && !(await answer)) {
    // Another start may have begun the new try meanwhile: it is joined, not doubled.
    const latest = probes.get(key);
    answer = latest !== answer ? latest : undefined;
  }
  if (answer === undefined) {
    answer = probe(keep);
    probes.set(key, answer);
  }
  return await answer;
}
