/**
 * `svc serve` under Deno with broad permissions becomes the narrowed node
 * before the command line's code loads: the reach read from the arguments
 * (`reach.ts`), the node's permissions computed as the container's are
 * (`permissions.ts`), the temp folders of SQL workers whose node died swept
 * (the narrowed node may not ask whether a process lives), then `execve`
 * of the same `deno run` under those permissions. Deno's APIs only, no
 * `node:` module: the whole step costs a few milliseconds beyond Deno's
 * own start. Anything it is not sure of (a setting it does not read, a
 * DuckDB binding outside a `node_modules` folder, no libc) leaves the
 * decision to the full path (`cli/sandbox.ts`), which reads the settings in
 * full and may run the node as a child instead.
 *
 * @module
 */
import { canExecReplacing, execReplacing, landlockAbi } from "./libc.ts";
import { nodeModulesAsIs, relaunchCommand } from "./command.ts";
import { type NodePaths, nodePermissionFlags } from "./permissions.ts";
import { serveReach } from "./reach.ts";
import { OWNED_TEMP_FOLDER, SWEPT_FOLDERS_ENV } from "./temp_folders.ts";
import { CGROUP_MEMORY_ENV, cgroupMemoryLimitWith, returningMalloc, toldCgroupLimit } from "./cgroup.ts";
import { memoryBudget, semiSpace } from "./memory_budget.ts";
import { denoNodeV8Flags } from "./node_v8_flags.ts";

/** The part of the `Deno` global used here (typed so that tsc builds without Deno's types). */
interface DenoNarrow {
  args: string[];
  pid: number;
  mainModule: string;
  execPath(): string;
  cwd(): string;
  env: { toObject(): Record<string, string> };
  permissions: { querySync(descriptor: { name: string }): { state: string } };
  realPathSync(path: string): string;
  statSync(path: string): { isDirectory: boolean; isFile: boolean; mtime: Date | null };
  readDirSync(path: string): Iterable<{ name: string }>;
  readTextFileSync(path: string): string;
  removeSync(path: string, options: { recursive: boolean }): void;
  build: { os: string; arch: string };
  stderr: { writeSync(bytes: Uint8Array): number };
  systemMemoryInfo(): { total: number };
}

/** The variable that tells the narrowed node it was narrowed by `svc serve` (and must not narrow again). */
export const SANDBOX_CHILD = "SVC_SANDBOX_CHILD";
/** The variable in which the narrowed node is told the kernel's Landlock ABI (it may not load libc to ask). */
export const KERNEL_LANDLOCK_ENV = "SVC_KERNEL_LANDLOCK_ABI";
/**
 * The variable in which the narrowed node is told its home folder: it reads
 * no `HOME`, and its SQL errors show the home folder as `~`.
 */
export const HOME_ENV = "SVC_HOME_FOLDER";

/**
 * What tells a narrowed node its home folder `home` (an absolute path other
 * than `/`), or nothing.
 *
 * @example
 * ```ts
 * import { homeEnv } from "./narrow.ts";
 * homeEnv("/home/ada"); // { SVC_HOME_FOLDER: "/home/ada" }
 * homeEnv(undefined); // {}
 * ```
 */
export function homeEnv(home: string | null | undefined): Record<string, string> {
  return home && home.startsWith("/") && home.length > 1 ? { [HOME_ENV]: home } : {};
}

/** The permission kinds that, granted without a list, make a process broad. */
const BROAD_KINDS = ["read", "write", "net", "run", "ffi"];

/**
 * The permission kinds this process holds without a list (`-A` gives
 * read, write, net, run and ffi); empty under Node, which has no
 * permissions to hold.
 *
 * @example
 * ```ts
 * import { broadPermissions } from "./narrow.ts";
 * console.log(broadPermissions()); // ["read", "write", "net", "run", "ffi"] under `deno run -A`
 * ```
 */
export function broadPermissions(): string[] {
  const d = (globalThis as unknown as { Deno?: DenoNarrow }).Deno;
  if (!d) return [];
  return BROAD_KINDS.filter((name) => d.permissions.querySync({ name }).state === "granted");
}

function readOrNull(d: DenoNarrow, path: string): string | null {
  try {
    return d.readTextFileSync(path);
  } catch {
    return null;
  }
}

function exists(d: DenoNarrow, path: string, folder = false): boolean {
  try {
    const s = d.statSync(path);
    return folder ? s.isDirectory : true;
  } catch {
    return false;
  }
}

/** `path` made absolute against `cwd`, with `.` and `..` resolved. */
function absolute(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** `path` and, when it differs, its real path (Deno checks a path as it is named). */
function withReal(d: DenoNarrow, path: string): string[] {
  try {
    const real = d.realPathSync(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

/**
 * The DuckDB binding `@duckdb/node-bindings` loads, found beside it in a
 * `node_modules` folder; null elsewhere (Deno's npm cache: the full path
 * resolves that one).
 */
function duckdbBinding(d: DenoNarrow): string | null {
  let main: string;
  try {
    main = import.meta.resolve("@duckdb/node-bindings");
  } catch {
    return null;
  }
  if (!main.startsWith("file:") || !main.includes("/node_modules/")) return null;
  const scope = decodeURIComponent(new URL(main).pathname).replace(/\/node-bindings\/[^/]*$/, "");
  const arch = d.build.arch === "x86_64" ? "x64" : d.build.arch === "aarch64" ? "arm64" : d.build.arch;
  // The glibc build even on a musl host: the package asks process.report, and Deno's names glibc.
  const binding = `${scope}/node-bindings-${d.build.os}-${arch}/duckdb.node`;
  try {
    return d.realPathSync(binding);
  } catch {
    return null;
  }
}

/** Where the node's pieces are; null when one cannot be told here. */
function nodePaths(d: DenoNarrow, env: Record<string, string>): NodePaths | null {
  const binding = duckdbBinding(d);
  if (binding === null || !import.meta.url.startsWith("file:")) return null;
  let config: string | null = null;
  for (
    let dir = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
    dir !== "";
    dir = dir.replace(/\/[^/]*$/, "")
  ) {
    if (exists(d, `${dir}/deno.json`)) {
      config = `${dir}/deno.json`;
      break;
    }
  }
  const unshare = ["/usr/bin/unshare", "/bin/unshare"].find((p) => exists(d, p));
  return {
    deno: d.execPath(),
    duckdbBinding: binding,
    config,
    temp: env.TMPDIR ? absolute(d.cwd(), env.TMPDIR) : "/tmp",
    run: unshare ? [unshare] : [],
    env: [...(env.TMPDIR ? ["TMPDIR"] : []), ...(env.DENO_DIR ? ["DENO_DIR"] : [])],
  };
}

/** Removes the temp folders of helpers (`OWNED_TEMP_FOLDER`) of nodes that no longer run; how many. */
function sweepWorkerFolders(d: DenoNarrow, temp: string): number {
  let swept = 0;
  try {
    for (const { name } of d.readDirSync(temp)) {
      const pid = OWNED_TEMP_FOLDER.exec(name)?.[1];
      if (pid === undefined || Number(pid) === d.pid || exists(d, `/proc/${pid}`, true)) continue;
      try {
        d.removeSync(`${temp}/${name}`, { recursive: true });
        swept++;
      } catch { /* another sweeper, or not ours */ }
    }
  } catch { /* no temp folder to look at */ }
  return swept;
}

/** The narrowed node of a `svc serve` command: its Deno permission flags and what its environment adds. */
export interface NarrowedNode {
  /** Deno flags: the node's permissions (and `--node-modules-dir=manual` where the checkout has the folder). */
  flags: string[];
  /** Variables set for the node. */
  env: Record<string, string>;
  /** The temporary folder (where stale SQL workers' folders are swept). */
  temp: string;
}

/** The machine's memory, or Infinity when this process may not ask (V8 then keeps its own sizes). */
function machineMemory(d: DenoNarrow): number {
  try {
    return d.systemMemoryInfo().total;
  } catch {
    return Infinity;
  }
}

/**
 * The narrowed node for `args` and `env` (the process's own), or null when
 * it is not `svc serve` with the sandbox on under Deno with broad
 * permissions, or anything needed cannot be told here.
 *
 * @example
 * ```ts ignore
 * import { narrowedNode } from "./narrow.ts";
 * const node = narrowedNode(Deno.args, Deno.env.toObject());
 * ```
 */
export function narrowedNode(args: string[], env: Record<string, string>): NarrowedNode | null {
  const d = (globalThis as unknown as { Deno?: DenoNarrow }).Deno;
  if (!d || d.build.os !== "linux" || env[SANDBOX_CHILD]) return null;
  try {
    if (broadPermissions().length === 0) return null;
  } catch {
    return null;
  }
  const reach = serveReach(args, env);
  if (reach === null || !reach.sandbox) return null;
  const paths = nodePaths(d, env);
  const home = env.XDG_CONFIG_HOME || (env.HOME ? `${env.HOME}/.config` : null);
  if (paths === null || (!env.SVC_TRUST_FILE && home === null)) return null;
  const trustFile = withReal(d, absolute(d.cwd(), env.SVC_TRUST_FILE || `${home}/svc/trust.json`))[0];
  const store = withReal(d, absolute(d.cwd(), reach.store));
  // Deno's lists are comma-separated, with no escape: such a path would name other paths.
  const named = [...store, trustFile, paths.deno, paths.duckdbBinding, paths.config ?? ""];
  if (named.some((p) => p.includes(","))) return null;
  const following = reach.follow.length > 0;
  const flags = nodePermissionFlags(paths, {
    store,
    trustFile,
    trustWrite: following && reach.verify,
    bind: { host: reach.host, port: reach.port },
    calls: following ? [reach.upstream ?? reach.baseUrl!, reach.baseUrl!] : [],
    readOnly: reach.readOnly,
  });
  // The launcher's own start has set node_modules up.
  flags.push(...nodeModulesAsIs(paths.config, (path) => exists(d, path, true)));
  // As the node will read it: what this process was told, else the cgroup itself (read once).
  const limit = toldCgroupLimit(env[CGROUP_MEMORY_ENV], () => cgroupMemoryLimitWith((path) => readOrNull(d, path)));
  const cgroup = env[CGROUP_MEMORY_ENV] ?? String(limit ?? "none");
  // V8 sizes its heap when it starts: the young generation the budget allows, whether idle spells shrink it, and how
  // soon it optimizes are flags (a bad --memory is the node's to refuse).
  const budget = memoryBudget(reach.memory, limit, machineMemory(d));
  if (budget) flags.push(...denoNodeV8Flags(semiSpace(budget.bytes)));
  return {
    flags,
    env: {
      [SANDBOX_CHILD]: "1",
      SVC_TRUST_FILE: trustFile,
      [KERNEL_LANDLOCK_ENV]: String(landlockAbi()),
      [CGROUP_MEMORY_ENV]: cgroup,
      ...homeEnv(env.HOME),
      ...returningMalloc(env),
    },
    temp: paths.temp,
  };
}

/**
 * Replaces this process with the narrowed node when it is `svc serve` under
 * Deno with broad permissions and the sandbox on, and everything needed can
 * be told here; returns otherwise (the caller goes on, and the full path
 * decides).
 *
 * @example
 * ```ts ignore
 * import { narrowServe } from "./narrow.ts";
 * narrowServe(); // first thing in cli.ts
 * ```
 */
export function narrowServe(): void {
  const d = (globalThis as unknown as { Deno?: DenoNarrow }).Deno;
  if (!d || !d.args.includes("serve") || !canExecReplacing()) return;
  let node: NarrowedNode | null;
  let cmdline: string[];
  try {
    node = narrowedNode(d.args, d.env.toObject());
    if (node === null) return;
    cmdline = d.readTextFileSync("/proc/self/cmdline").split("\0").slice(0, -1);
  } catch {
    return;
  }
  const self = { execPath: d.execPath(), mainModule: d.mainModule, args: d.args };
  const command = relaunchCommand(cmdline, self, node.flags);
  if (command === null) return;
  const swept = sweepWorkerFolders(d, node.temp);
  try {
    execReplacing(command, swept > 0 ? { ...node.env, [SWEPT_FOLDERS_ENV]: String(swept) } : node.env);
  } catch {
    // The full path tries again, and says why if it cannot.
  }
}
