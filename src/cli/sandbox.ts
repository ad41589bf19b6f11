/**
 * `svc serve` under Deno narrows itself: started with broad permissions
 * (`deno run -A cli.ts serve`), the process replaces itself (`execve`) with
 * the node under only what the node needs, computed from its settings by
 * the same function the container uses; where it cannot exec (no libc
 * through FFI) it runs the node as its child instead. This file stays light
 * (no DuckDB, no node code): it decides before the rest loads.
 *
 * @module
 */
import { existsSync } from "node:fs";
import process from "node:process";
import {
  broadPermissions,
  canExecReplacing,
  cgroupMemoryLimit,
  execReplacing,
  homeOrNull,
  KERNEL_LANDLOCK_ENV,
  landlockAbi,
  localNodePaths,
  NO_DUCKDB_BINDING,
  nodePermissionFlags,
  ownRelaunchCommand,
  runAsLauncher,
  runtimeName,
  tempRoot,
  withRealPath,
} from "../runtime/mod.ts";
import { checkServeSettings, nodeReach, parseServeArgs, type ServeSettings } from "../settings/mod.ts";
import { trustFilePath } from "../trust/mod.ts";
import { certificateFailure } from "../errors/mod.ts";
import { takeGlobalFlags } from "./global_flags.ts";
import {
  CGROUP_MEMORY_ENV,
  denoNodeV8Flags,
  homeEnv,
  nodeModulesAsIs,
  returningMalloc,
  SANDBOX_CHILD,
  sweepStaleTempFolders,
  sweptFoldersLine,
} from "../launch/mod.ts";

export { SANDBOX_CHILD };

/** The settings of `svc ... serve ...` in `args`, or null for another command, help, or settings in error. */
function serveSettingsOf(args: string[], env: Record<string, string | undefined>): ServeSettings | null {
  try {
    const rest = takeGlobalFlags(args, env);
    if (rest[0] !== "serve") return null;
    const settings = parseServeArgs(rest.slice(1), env);
    if (settings.help) return null;
    checkServeSettings(settings);
    return settings;
  } catch {
    // The command itself says what is wrong, as it always has.
    return null;
  }
}

/**
 * The narrowed node's Deno flags for `settings`, and what its environment
 * adds; a reason instead when the node cannot be narrowed here. The fast
 * path (`launch/narrow.ts`) computes the same without loading this.
 *
 * @example
 * ```ts ignore
 * import { narrowedFlags } from "./sandbox.ts";
 * import { parseServeArgs } from "../settings/mod.ts";
 * const node = narrowedFlags(parseServeArgs(["--store", "/data/s"], {}), Deno.env.toObject());
 * ```
 */
export function narrowedFlags(
  settings: ServeSettings,
  env: Record<string, string | undefined>,
): { flags: string[]; env: Record<string, string> } | string {
  const paths = localNodePaths();
  if (typeof paths === "string") return paths;
  const trustFile = withRealPath(trustFilePath(env))[0];
  const named = nodeReach(settings, trustFile);
  const reach = { ...named, store: withRealPath(named.store as string) };
  // Deno's lists are comma-separated, with no escape: such a path would name other paths.
  const listed = [...reach.store, trustFile, paths.deno, paths.duckdbBinding, paths.config ?? ""];
  if (listed.some((p) => p.includes(","))) return `a path holds a comma, which Deno's permission lists cannot name`;
  // The launcher's start has set node_modules up.
  const flags = [...nodePermissionFlags(paths, reach), ...nodeModulesAsIs(paths.config, existsSync)];
  // V8 sizes its heap when it starts (the young generation the budget allows, whether idle spells shrink it), and how
  // soon it optimizes.
  flags.push(...denoNodeV8Flags(settings.memory.semiSpace));
  // The narrowed node reads only SVC_* variables: the trust file is named for it.
  // What the kernel offers is told too: the narrowed node may not load libc to ask (see `expectedWalls`).
  // And the cgroup's memory limit, for the default memory budget: the narrowed node may not read /proc/self.
  const landlock = String(landlockAbi());
  const cgroup = env[CGROUP_MEMORY_ENV] ?? String(cgroupMemoryLimit() ?? "none");
  return {
    flags,
    env: {
      [SANDBOX_CHILD]: "1",
      SVC_TRUST_FILE: trustFile,
      [KERNEL_LANDLOCK_ENV]: landlock,
      [CGROUP_MEMORY_ENV]: cgroup,
      // And its home folder, which its SQL errors show as `~`: the narrowed node may not read HOME.
      ...homeEnv(env.HOME || homeOrNull()),
      ...returningMalloc(env),
    },
  };
}

/** The Deno command line of the narrowed node for `settings`, and what its environment adds; or a reason. */
function narrowedNode(
  settings: ServeSettings,
  env: Record<string, string | undefined>,
): { command: string[]; env: Record<string, string> } | string {
  const node = narrowedFlags(settings, env);
  if (typeof node === "string") return node;
  const command = ownRelaunchCommand(node.flags);
  return typeof command === "string" ? command : { command, env: node.env };
}

/**
 * Has Deno install the npm packages by loading the DuckDB binding: on a
 * first start whose install failed before the program ran (Deno goes on and
 * tries again at the first import), the binding is missing only for that.
 * Answers why it cannot be installed when a certificate nobody here trusts
 * (a TLS-intercepting proxy) is the reason, naming `DENO_CERT`; any other
 * failure is left to the node's own start to report (null).
 */
async function installDuckdbBinding(): Promise<string | null> {
  try {
    await import("@duckdb/node-bindings");
    return null;
  } catch (e) {
    return certificateFailure(e, "deno");
  }
}

/**
 * Runs `svc args...` as the launcher of a narrowed node when `args` is
 * `serve` under Deno with broad permissions and the sandbox on; resolves
 * with the node's exit code (1 when the npm packages cannot be downloaded
 * for an untrusted certificate, said on stderr), or null when this process should run the
 * command itself (another command, Node, `--no-sandbox`, permissions
 * already narrow, the narrowed node's own run, or settings in error, which
 * the command reports).
 *
 * @example
 * ```ts ignore
 * import { serveSandboxed } from "./sandbox.ts";
 * const code = await serveSandboxed(["serve", "--store", "svc-data"]); // runs the node as a child
 * ```
 */
export async function serveSandboxed(args: string[]): Promise<number | null> {
  if (runtimeName() !== "deno" || !args.includes("serve")) return null;
  if (broadPermissions().length === 0) return null;
  let env: Record<string, string | undefined>;
  try {
    env = { ...process.env };
  } catch {
    return null; // Environment leave is narrow already: the permissions were chosen by hand.
  }
  if (env[SANDBOX_CHILD]) return null;
  const settings = serveSettingsOf(args, env);
  if (settings === null || !settings.sandbox) return null;
  let node = narrowedNode(settings, env);
  if (node === NO_DUCKDB_BINDING) {
    const failure = await installDuckdbBinding();
    if (failure !== null) {
      process.stderr.write(`error: ${failure}\n`);
      return 1;
    }
    node = narrowedNode(settings, env);
  }
  if (typeof node === "string") {
    process.stderr.write(`svc: the node cannot be narrowed (${node}); it keeps the permissions it was started with\n`);
    return null;
  }
  // The temp folders of helpers whose node died are swept here: the narrowed node may not ask whether a process lives.
  const swept = await sweepStaleTempFolders(tempRoot()).catch(() => 0);
  if (swept > 0 && !settings.quiet) {
    process.stderr.write(sweptFoldersLine(swept) + "\n");
  }
  if (canExecReplacing()) {
    try {
      // The same process becomes the narrowed node: its pid, parent, signals and exit code are the node's own.
      execReplacing(node.command, node.env);
    } catch (e) {
      process.stderr.write(`svc: ${(e as Error).message}; the node runs as this process's child instead\n`);
    }
  }
  return await runAsLauncher(node.command, node.env);
}

/**
 * The start-up log's line on what the node runs under: the walls up
 * (`deno`, `landlock`, `view`, `duckdb`, as `/healthz` lists them; `none`),
 * then why the Deno wall is what it is: permissions narrowed to its store,
 * address and origin; as given; kept broad; off; or none at all (Node).
 *
 * @example
 * ```ts
 * import { sandboxLine } from "./sandbox.ts";
 * import { parseServeArgs } from "../settings/mod.ts";
 * sandboxLine(parseServeArgs(["--no-sandbox"], {}), {}, ["landlock", "duckdb"]);
 * // "sandbox: landlock, duckdb (off: the node keeps the permissions it was started with)" under Deno
 * ```
 */
export function sandboxLine(
  settings: ServeSettings,
  env: Record<string, string | undefined>,
  walls: readonly string[],
): string {
  return `sandbox: ${walls.length > 0 ? walls.join(", ") : "none"} (${denoWall(settings, env)})`;
}

/** Why the node's Deno wall is what it is. */
function denoWall(settings: ServeSettings, env: Record<string, string | undefined>): string {
  if (runtimeName() === "node") {
    return "under Node (the npm form) no permission sandbox holds the node; run it under Deno or the image for one";
  }
  if (!settings.sandbox) return "off: the node keeps the permissions it was started with";
  const broad = broadPermissions();
  if (broad.length > 0) return `off: the node runs with broad Deno permissions (${broad.join(", ")})`;
  if (env[SANDBOX_CHILD] !== "1") return "deno permissions as given on the command line";
  const calls = settings.follow.length === 0
    ? ""
    : settings.upstream
    ? ", the upstream and the origin"
    : " and the origin";
  if (settings.objectStore) {
    return `deno permissions narrowed to the part cache, the bucket's endpoint, the bind address${calls}`;
  }
  return `deno permissions narrowed to the store, the bind address${calls}`;
}
