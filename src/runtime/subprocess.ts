/**
 * Running one of this package's modules as a child process of the same
 * runtime: `deno run` with narrow permissions under Deno, `node` under Node.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { denoGlobal } from "./deno.ts";
import { inPrivateView, type PrivateView } from "./private_view.ts";
import { nodeModulesAsIs, RETURNING_MALLOC_ENV, returningMalloc } from "../launch/mod.ts";

/** How to start a module process. */
export interface ModuleProcessOptions {
  /** Arguments after the module. */
  args: string[];
  /** Deno permission flags (ignored under Node). */
  denoPermissions: string[];
  /** Working directory of the child. */
  cwd?: string;
  /**
   * A hard ceiling, in bytes, on the child's data memory (`RLIMIT_DATA`, set
   * by the shell before the runtime starts): an allocation past it fails in
   * the child instead of the machine running out.
   */
  dataLimitBytes?: number;
  /** Runs the child in a private view of the filesystem (see `private_view.ts`); only where `privateViewsWork`. */
  view?: PrivateView;
  /** `pipe` hands the child's stderr to the caller (`child.stderr`); by default it goes to ours. */
  stderr?: "inherit" | "pipe";
  /**
   * Confines the child with Landlock under Deno (see `landlock.ts`): files
   * beneath `read` readable, beneath `write` also writable, as the child sees
   * them; with the code's folder and what the runtime needs. Ignored under
   * Node; where the kernel lacks Landlock the child runs unconfined.
   */
  confine?: { read: string[]; write: string[] };
  /** V8 flags for the child (`--max-semi-space-size=4`): Deno takes them in `--v8-flags=`, Node as they are. */
  v8Flags?: string[];
}

/**
 * The launcher that confines a Deno child before it runs (`landlock.ts`),
 * with what the child's code needs read: its configuration, lock file and
 * `node_modules`, and the top folder of the code beside them (`src/`), never
 * the rest of the checkout (which may hold a `.env`).
 */
function confining(
  deno: { execPath(): string },
  file: string,
  config: string | null,
  confine: { read: string[]; write: string[] },
) {
  const launcher = fileURLToPath(new URL("./landlock.ts", import.meta.url));
  const root = config ? dirname(config) : dirname(file);
  const first = relative(root, file).split(sep)[0];
  const top = first === ".." || first === "" ? relative(root, dirname(file)) : first;
  const code = config
    ? [config, ...["deno.lock", "package.json", "node_modules", top].map((name) => join(root, name))]
    : [root];
  const rules = [...code, ...confine.read].flatMap((p) => ["--read", p]);
  for (const p of confine.write) rules.push("--write", p);
  return [
    deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    "--allow-ffi",
    "--allow-read",
    launcher,
    ...rules,
  ];
}

/** Whether `path` exists and may be read (a narrowed process may not look everywhere). */
function readable(path: string): boolean {
  try {
    return existsSync(path);
  } catch {
    return false;
  }
}

/** Whether `path` exists, or cannot be looked at (a narrowed process): only a folder known missing is false. */
function mayExist(path: string): boolean {
  try {
    return existsSync(path);
  } catch {
    return true;
  }
}

/** Variables a child is given one by one when the whole environment may not be read. */
const NAMED_ENV = ["DENO_DIR", "TMPDIR", "HOME", "XDG_CACHE_HOME", "PATH", ...Object.keys(RETURNING_MALLOC_ENV)];

/**
 * The environment a child inherits: ours, or, when this process may not read
 * all of it (the container's node reads only `SVC_*`, `TMPDIR` and
 * `DENO_DIR`), those of {@linkcode NAMED_ENV} it may read: a module process
 * takes what it needs as arguments, but Deno needs its cache's folder.
 */
function inheritableEnv(): Record<string, string | undefined> {
  try {
    return { ...process.env };
  } catch {
    const env: Record<string, string> = {};
    for (const name of NAMED_ENV) {
      try {
        const value = process.env[name];
        if (value !== undefined) env[name] = value;
      } catch { /* not ours to read */ }
    }
    return env;
  }
}

/** `env` with the C library's allocator settings that give memory back, where it does not set them. */
function withReturningMalloc(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, ...returningMalloc(env) };
}

/** The `deno.json` nearest above `file` that this process may read, or null. */
function configAbove(file: string): string | null {
  for (let dir = dirname(file);; dir = dirname(dir)) {
    const candidate = join(dir, "deno.json");
    if (readable(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Starts the module at `moduleUrl` (a `file:` URL) as a child process with
 * piped stdin and stdout; its stderr goes to ours unless `stderr` is `pipe`.
 *
 * @example
 * ```ts
 * import { spawnModule } from "./subprocess.ts";
 * const child = spawnModule(new URL("./worker_main.ts", import.meta.url), { args: [], denoPermissions: ["--allow-read"] });
 * ```
 */
export function spawnModule(moduleUrl: URL, options: ModuleProcessOptions): ChildProcess {
  const file = fileURLToPath(moduleUrl);
  const deno = denoGlobal();
  let command: string[];
  if (deno) {
    const config = configAbove(file);
    const flags = [
      "run",
      "--quiet",
      "--no-prompt",
      ...(options.v8Flags?.length ? [`--v8-flags=${options.v8Flags.join(",")}`] : []),
      ...(config ? ["--config", config] : []),
      ...options.denoPermissions,
    ];
    // The child takes the checkout's node_modules as this process left it.
    flags.push(...nodeModulesAsIs(config, mayExist));
    command = [deno.execPath(), ...flags, file, ...options.args];
    if (options.confine) command = [...confining(deno, file, config, options.confine), "--", ...command];
  } else {
    command = [process.execPath, ...(options.v8Flags ?? []), file, ...options.args];
  }
  if (options.view) command = inPrivateView(command, options.view);
  if (options.dataLimitBytes !== undefined && process.platform !== "win32") {
    // `ulimit -d` takes KiB. A lower limit already in force is kept (the shell refuses to raise it).
    const kib = Math.max(1, Math.floor(options.dataLimitBytes / 1024));
    command = ["/bin/sh", "-c", `ulimit -d ${kib} 2>/dev/null; exec "$@"`, "sh", ...command];
  }
  return spawn(command[0], command.slice(1), {
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    cwd: options.cwd,
    env: withReturningMalloc(inheritableEnv()),
  });
}
