/**
 * A process that narrows itself under Deno: whether it holds broad
 * permissions, where the node's runtime pieces are on this machine, and
 * running the same program again as a child under narrower flags, as its
 * launcher (stdio shared, signals passed on, its exit code passed back).
 *
 * Deno has no way to give up permissions in place for good (a revoked
 * permission cannot be narrowed to a list), so the narrowed node is a new
 * process.
 *
 * @module
 */
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { onParentGone } from "./parent.ts";
import { childSignals } from "./child_signals.ts";
import type { NodePaths } from "./permissions.ts";
import { relaunchCommand } from "../launch/mod.ts";
import { unsharePath } from "./private_view.ts";

interface DenoChild {
  readonly pid: number;
  readonly status: Promise<{ code: number; signal: string | null }>;
  kill(signal: string): void;
}

/** The part of the `Deno` global a launcher uses (typed here so tsc builds without Deno's types). */
interface DenoLauncher {
  permissions: { querySync(descriptor: { name: string; command?: string; path?: string }): { state: string } };
  execPath(): string;
  readonly mainModule: string;
  readonly args: string[];
  readTextFileSync(path: string): string;
  addSignalListener(signal: string, fn: () => void): void;
  Command: new (command: string, options: {
    args: string[];
    env: Record<string, string>;
    stdin: "inherit";
    stdout: "inherit";
    stderr: "inherit";
    detached: boolean;
  }) => { spawn(): DenoChild };
  readonly pid: number;
}

/** Runs `/bin/cat path` to its end; its output (Deno lets only `-A` read `/proc/<pid>/` itself). */
function catFile(d: DenoLauncher, path: string): string {
  const Command = d.Command as unknown as new (
    command: string,
    options: { args: string[]; stdout: "piped"; stderr: "null"; stdin: "null" },
  ) => { outputSync(): { success: boolean; stdout: Uint8Array } };
  const out = new Command("/bin/cat", { args: [path], stdout: "piped", stderr: "null", stdin: "null" }).outputSync();
  if (!out.success) throw new Error(`cannot read ${path}`);
  return new TextDecoder().decode(out.stdout);
}

function deno(): DenoLauncher | undefined {
  return (globalThis as { Deno?: DenoLauncher }).Deno;
}

/** A path and, when it differs and exists, its real path (a symlinked store is checked at its real place). */
export function withRealPath(path: string): string[] {
  const absolute = resolve(path);
  try {
    const real = realpathSync(absolute);
    return real === absolute ? [absolute] : [absolute, real];
  } catch {
    return [absolute];
  }
}

/** The `deno.json` nearest above `file`, or null. */
function configAbove(file: string): string | null {
  for (let dir = dirname(file);; dir = dirname(dir)) {
    if (existsSync(join(dir, "deno.json"))) return join(dir, "deno.json");
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The real path of the DuckDB binding (`duckdb.node`) that
 * `@duckdb/node-bindings` loads on this machine, resolved the way it
 * resolves it (from a `node_modules` folder or Deno's npm cache), or null.
 * Under Deno that is always the glibc build, even on a musl host: the
 * package asks `process.report` for the libc, and Deno's names glibc
 * (deno.lock holds no musl build, see DEVELOPERS.md).
 */
function duckdbBinding(): string | null {
  let bindings: string;
  try {
    bindings = import.meta.resolve("@duckdb/node-bindings");
  } catch {
    return null;
  }
  if (!bindings.startsWith("file:")) return null;
  try {
    const name = `@duckdb/node-bindings-${process.platform}-${process.arch}/duckdb.node`;
    return realpathSync(createRequire(fileURLToPath(bindings)).resolve(name));
  } catch {
    return null;
  }
}

/** The path of a program on `PATH`, or null. */
function onPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    if (dir !== "" && existsSync(join(dir, program))) return join(dir, program);
  }
  return null;
}

/** The reason {@linkcode localNodePaths} gives when the DuckDB binding is not installed. */
export const NO_DUCKDB_BINDING = "the DuckDB binding could not be found";

/**
 * Where the node's pieces are on this machine: this Deno, the DuckDB
 * binding, the `deno.json` the SQL workers start from, the temporary folder
 * (`TMPDIR`, which the node may then read, else `/tmp`: the runtime's other
 * variables are out of its reach), and `unshare` (the SQL workers' private
 * views); a reason instead when the binding cannot be found.
 *
 * @example
 * ```ts
 * import { localNodePaths } from "./relaunch.ts";
 * const paths = localNodePaths();
 * console.log(typeof paths === "string" ? paths : paths.duckdbBinding);
 * ```
 */
export function localNodePaths(): NodePaths | string {
  const d = deno();
  if (!d) return "not running under Deno";
  const binding = duckdbBinding();
  if (binding === null) return NO_DUCKDB_BINDING;
  const here = import.meta.url.startsWith("file:") ? fileURLToPath(import.meta.url) : null;
  const unshare = process.platform === "linux" ? unsharePath() : null;
  const tmpdir = process.env.TMPDIR;
  return {
    deno: d.execPath(),
    duckdbBinding: binding,
    config: here === null ? null : configAbove(here),
    temp: tmpdir ? resolve(tmpdir) : "/tmp",
    run: unshare === null ? [] : [unshare],
    // DENO_DIR is handed on to the SQL workers: Deno finds its cache there, not in a home the node may not read.
    env: [...(tmpdir ? ["TMPDIR"] : []), ...(process.env.DENO_DIR ? ["DENO_DIR"] : [])],
  };
}

/**
 * This process's own `deno run` command line again, with its permissions
 * replaced by `flags`; a reason instead when it cannot be had (under Node,
 * without leave to run Deno or to read `/proc/self/cmdline`).
 *
 * @example
 * ```ts
 * import { ownRelaunchCommand } from "./relaunch.ts";
 * console.log(ownRelaunchCommand(["--allow-read=/data"]));
 * ```
 */
export function ownRelaunchCommand(flags: string[]): string[] | string {
  const d = deno();
  if (!d) return "not running under Deno";
  if (d.permissions.querySync({ name: "run", command: d.execPath() }).state !== "granted") {
    return "no leave to run Deno";
  }
  let cmdline: string[];
  try {
    let text: string;
    try {
      text = d.readTextFileSync("/proc/self/cmdline");
    } catch {
      text = catFile(d, `/proc/${d.pid}/cmdline`);
    }
    cmdline = text.split("\0").slice(0, -1);
  } catch {
    return "its command line cannot be read (/proc/self/cmdline)";
  }
  const command = relaunchCommand(cmdline, { execPath: d.execPath(), mainModule: d.mainModule, args: d.args }, flags);
  return command ?? "its command line does not end with its main module and arguments";
}

/**
 * Runs `command` as this process's child with its stdio, in a process
 * group of its own (a Ctrl-C reaches it once, passed on, not twice), and
 * resolves with its exit code (128 + the signal's number when a signal
 * ended it). SIGINT and SIGTERM are passed on; when the process that
 * started this one goes away, the child gets SIGHUP; when this one is
 * killed, the child is killed too where `setpriv` is at hand.
 *
 * @example
 * ```ts ignore
 * import { runAsLauncher } from "./relaunch.ts";
 * Deno.exit(await runAsLauncher(["/usr/bin/deno", "run", "child.ts"], { SVC_CHILD: "1" }));
 * ```
 */
export async function runAsLauncher(command: string[], env: Record<string, string>): Promise<number> {
  const d = deno();
  if (!d) throw new Error("runAsLauncher runs under Deno only");
  // Killed outright, the launcher takes the child with it (`setpriv --pdeathsig`, util-linux), as a kill of the
  // single process did; without setpriv the child notices within a second (its parent watch) and stops.
  const setpriv = process.platform === "linux" ? onPath("setpriv") : null;
  const argv = setpriv === null ? command : [setpriv, "--pdeathsig", "SIGKILL", "--", ...command];
  const child = new d.Command(argv[0], {
    args: argv.slice(1),
    env,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
    detached: true,
  }).spawn();
  const signals = childSignals((signal) => child.kill(signal));
  d.addSignalListener("SIGINT", () => signals.pass("SIGINT"));
  d.addSignalListener("SIGTERM", () => signals.pass("SIGTERM"));
  const stopWatching = onParentGone(signals.parentGone);
  const status = await child.status;
  stopWatching();
  if (status.signal) return 128 + (SIGNAL_NUMBERS[status.signal] ?? 0);
  return status.code;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Calls `fn` when this process's launcher says that the process that
 * started it has gone (SIGHUP, see {@linkcode runAsLauncher}); under Node,
 * never.
 *
 * @example
 * ```ts
 * import { onLauncherHangup } from "./relaunch.ts";
 * onLauncherHangup(() => console.error("the launcher's parent has gone"));
 * ```
 */
export function onLauncherHangup(fn: () => void): void {
  deno()?.addSignalListener("SIGHUP", fn);
}
