/**
 * Landlock (Linux 5.13+): the kernel confines a process's file access to
 * the folders it names, whatever native code runs in it (DuckDB included).
 * Reached from Deno through FFI to libc (`prctl`, `open`, `syscall`,
 * `execve`); under Node, on other systems, or where the kernel lacks it,
 * nothing happens and callers are told so.
 *
 * A Landlock domain binds the thread that asks and the threads it starts
 * later, not threads already running, and Deno runs several before any of
 * our code. So a confined module process is started through this file as a
 * launcher: it restricts its own thread, then `execve`s the real command,
 * which inherits the domain in every thread it will ever have. The rules
 * then also name what the runtime reads to start (its binary, system
 * libraries, its cache, the code) — read only; nothing else of the host is
 * readable, nothing but the named folders writable, no TCP bind or connect,
 * no signals or abstract sockets to processes outside the domain.
 *
 * Launcher form (what `spawnModule` runs with `confine`):
 * `deno run --no-config --allow-ffi --allow-read landlock.ts [--read P]... [--write P]... -- COMMAND...`
 *
 * @module
 */
import { join } from "node:path";
import {
  address,
  cString,
  type DenoFfi,
  errno,
  execReplacing,
  KERNEL_LANDLOCK_ENV,
  landlockAbi,
  type Libc,
  loadLibc,
} from "../launch/mod.ts";
import process from "node:process";

/** What a rule lets the confined process do beneath a path: read, also run (`execve`), or also change. */
export type LandlockAccess = "read" | "run" | "write";

/** One folder (or file) the confined process may use. */
export interface LandlockRule {
  /** The path as the confined process sees it. */
  path: string;
  /** `read`: open files and list folders; `run`: also execute files; `write`: also make, change and remove. */
  access: LandlockAccess;
}

// Access rights (linux/landlock.h).
const FS_EXECUTE = 1n << 0n;
const FS_WRITE_FILE = 1n << 1n;
const FS_READ_FILE = 1n << 2n;
const FS_READ_DIR = 1n << 3n;
const FS_TRUNCATE = 1n << 14n;
const NET_BIND_TCP = 1n << 0n;
const NET_CONNECT_TCP = 1n << 1n;
const SCOPE_ABSTRACT_UNIX_SOCKET = 1n << 0n;
const SCOPE_SIGNAL = 1n << 1n;

/** Every file-system right the kernel's Landlock ABI `abi` knows (13 bits; REFER at 2, TRUNCATE at 3, IOCTL_DEV at 5). */
function fsRights(abi: number): bigint {
  const bits = abi >= 5 ? 16n : abi >= 3 ? 15n : abi >= 2 ? 14n : 13n;
  return (1n << bits) - 1n;
}

const SYS_CREATE_RULESET = 444n;
const SYS_ADD_RULE = 445n;
const SYS_RESTRICT_SELF = 446n;
const RULE_PATH_BENEATH = 1n;
const PR_SET_NO_NEW_PRIVS = 38;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const ENOENT = 2;
const EACCES = 13;
const EINVAL = 22;

/** The ruleset attribute: handled FS rights, then (ABI 4) net rights, then (ABI 6) scopes. */
function rulesetAttr(abi: number): Uint8Array {
  const attr = new Uint8Array(abi >= 6 ? 24 : abi >= 4 ? 16 : 8);
  const view = new DataView(attr.buffer);
  view.setBigUint64(0, fsRights(abi), true);
  if (abi >= 4) view.setBigUint64(8, NET_BIND_TCP | NET_CONNECT_TCP, true);
  if (abi >= 6) view.setBigUint64(16, SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL, true);
  return attr;
}

/** What `rule` allows, within what ABI `abi` handles; a file takes no folder rights. */
function allowed(rule: LandlockRule, abi: number, folder: boolean): bigint {
  if (rule.access === "write") {
    const all = fsRights(abi) & ~FS_EXECUTE;
    return folder ? all : all & (FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | (abi >= 5 ? 1n << 15n : 0n));
  }
  const read = rule.access === "run" ? FS_READ_FILE | FS_EXECUTE : FS_READ_FILE;
  return folder ? read | FS_READ_DIR : read;
}

/** Adds the rule for `rule` to `ruleset`; a path that does not exist is skipped. */
function addRule(l: { deno: DenoFfi; c: Libc }, ruleset: number, rule: LandlockRule, abi: number): void {
  // Opened through libc, not looked at through the runtime: Deno would want all its leave for /proc and /sys.
  const fd = l.c.open(cString(rule.path), O_PATH | O_CLOEXEC, 0);
  if (fd < 0) {
    // A path that is not there, or that this process may not reach anyway, needs no rule.
    if (errno(l) === ENOENT || errno(l) === EACCES) return;
    throw new Error(`landlock: cannot open ${rule.path} (errno ${errno(l)})`);
  }
  try {
    const attr = new Uint8Array(12); // packed: u64 allowed_access, s32 parent_fd
    const view = new DataView(attr.buffer);
    view.setInt32(8, fd, true);
    // A folder's rights first; a file refuses them (EINVAL) and takes a file's.
    for (const folder of [true, false]) {
      view.setBigUint64(0, allowed(rule, abi, folder), true);
      if (l.c.syscall(SYS_ADD_RULE, BigInt(ruleset), RULE_PATH_BENEATH, address(l, attr), 0n) >= 0n) return;
      if (!folder || errno(l) !== EINVAL) break;
    }
    throw new Error(`landlock: cannot add a rule for ${rule.path} (errno ${errno(l)})`);
  } finally {
    l.c.close(fd);
  }
}

/**
 * Confines the calling thread (and the threads and processes it starts
 * later) to `rules`: files beneath each path readable (and runnable), or also
 * writable; nothing else; no TCP. Resolves with the ABI used, or 0 where
 * Landlock cannot be used (nothing was changed). Other threads already
 * running are not confined: call it in a launcher that then
 * {@linkcode execReplacing}s the real command.
 *
 * @example
 * ```ts ignore
 * import { restrictSelf } from "./landlock.ts";
 * restrictSelf([{ path: "/srv/store", access: "read" }, { path: "/tmp/spill", access: "write" }]);
 * ```
 */
export function restrictSelf(rules: LandlockRule[]): number {
  const abi = landlockAbi();
  if (abi === 0) return 0;
  const l = loadLibc()!;
  if (l.c.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) {
    throw new Error(`landlock: prctl failed (errno ${errno(l)})`);
  }
  const attr = rulesetAttr(abi);
  const ruleset = Number(l.c.syscall(SYS_CREATE_RULESET, address(l, attr), BigInt(attr.length), 0n, 0n));
  if (ruleset < 0) throw new Error(`landlock: cannot create a ruleset (errno ${errno(l)})`);
  try {
    for (const rule of rules) addRule(l, ruleset, rule, abi);
    const done = l.c.syscall(SYS_RESTRICT_SELF, BigInt(ruleset), 0n, 0n, 0n);
    if (done < 0n) throw new Error(`landlock: cannot restrict the process (errno ${errno(l)})`);
  } finally {
    l.c.close(ruleset);
  }
  return abi;
}

/** An environment variable read through libc (the launcher has no leave to read the environment). */
function env(name: string): string | undefined {
  const l = loadLibc();
  const p = l?.c.getenv(cString(name));
  return l && p ? new l.deno.UnsafePointerView(p).getCString() : undefined;
}

/**
 * What the runtime needs to start and run a module: its binary and the
 * system's libraries (run), its cache (read: compiled code and npm packages;
 * it keeps working without writing there), its own `/proc` folder (memory,
 * cgroup: DuckDB reads them when it opens), and the system's memory, CPU and
 * cgroup files. No other process's `/proc` folder: their command lines may
 * hold secrets.
 *
 * @example
 * ```ts
 * import { runtimeRules } from "./landlock.ts";
 * runtimeRules().some((r) => r.path === "/etc/passwd"); // false
 * ```
 */
export function runtimeRules(): LandlockRule[] {
  const l = loadLibc();
  const cache = denoCache();
  const run = [...(l ? [l.deno.execPath()] : []), "/lib", "/lib64", "/usr/lib", "/usr/lib64"];
  const read = [
    cache,
    "/usr/share/zoneinfo",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/ssl/certs",
    "/dev/urandom",
    "/proc/self",
    "/proc/meminfo",
    "/proc/stat",
    "/proc/sys/vm/overcommit_memory",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
  ];
  return [
    ...run.map((path) => ({ path, access: "run" as const })),
    ...read.map((path) => ({ path, access: "read" as const })),
    { path: "/dev/null", access: "write" },
  ];
}

/** Deno's cache folder as Deno works it out, without asking the password database (Landlock keeps it out). */
function denoCache(): string {
  return env("DENO_DIR") ?? join(env("XDG_CACHE_HOME") ?? join(env("HOME") ?? "/root", ".cache"), "deno");
}

/**
 * The kernel's Landlock ABI as this process can tell it: asked through
 * libc, else as its launcher said ({@linkcode KERNEL_LANDLOCK_ENV}), else 0.
 *
 * @example
 * ```ts
 * import { kernelLandlockAbi } from "./landlock.ts";
 * kernelLandlockAbi(); // 7 on Linux 6.15+ under Deno
 * ```
 */
export function kernelLandlockAbi(): number {
  const asked = landlockAbi();
  if (asked > 0) return asked;
  try {
    return Number(process.env[KERNEL_LANDLOCK_ENV] ?? 0) || 0;
  } catch {
    return 0; // No leave to read it.
  }
}

/** The environment variable the launcher sets for the command: the Landlock ABI in force, `0` for none. */
const CONFINED_ENV = "SVC_LANDLOCK_ABI";

/**
 * The Landlock ABI this process was confined under by the launcher, or 0:
 * not started through it, or started where Landlock was missing.
 *
 * @example
 * ```ts
 * import { confinedAbi } from "./landlock.ts";
 * confinedAbi(); // 0 here: this process was not started confined
 * ```
 */
export function confinedAbi(): number {
  return Number(env(CONFINED_ENV) ?? 0) || 0;
}

/** The launcher: `[--read P | --write P]... -- COMMAND...` (see the module's comment). */
function launch(args: string[]): never {
  const split = args.indexOf("--");
  if (split < 1 || split === args.length - 1) throw new Error("usage: landlock.ts [--read P|--write P]... -- COMMAND");
  const rules = runtimeRules();
  for (let i = 0; i < split; i += 2) {
    const access = args[i] === "--write" ? "write" : args[i] === "--read" ? "read" : null;
    if (!access || i + 1 >= split) throw new Error(`landlock.ts: unknown argument ${args[i]}`);
    rules.push({ path: args[i + 1], access });
  }
  const abi = restrictSelf(rules);
  const libc = loadLibc()?.c;
  libc?.setenv(cString(CONFINED_ENV), cString(String(abi)), 1);
  // A node with narrowed leave passes no HOME: Deno would then look its home up in /etc/passwd, which it may not read.
  libc?.setenv(cString("DENO_DIR"), cString(denoCache()), 0);
  execReplacing(args.slice(split + 1));
}

if ((import.meta as ImportMeta & { main?: boolean }).main) {
  try {
    launch(process.argv.slice(2));
  } catch (e) {
    console.error(`svc sql worker launcher: ${(e as Error).message}`);
    process.exit(1);
  }
}
