/**
 * libc through Deno's FFI (Linux on x86-64 or arm64, with leave to load
 * it): what `svc serve` needs to replace itself with the narrowed node
 * (`execve`), and what Landlock's launcher (`runtime/landlock.ts`) builds
 * on. No `node:` module and nothing of the rest of svc is imported: this
 * runs before the command line's code loads.
 *
 * @module
 */

const SYS_CREATE_RULESET = 444n;
const CREATE_RULESET_VERSION = 1n;

/** The part of Deno's FFI used here and by Landlock's launcher (typed here so tsc builds without Deno's types). */
export interface DenoFfi {
  build: { os: string; arch: string };
  dlopen(path: string, symbols: Record<string, unknown>): { symbols: Libc; close(): void };
  UnsafePointer: { of(buffer: Uint8Array | BigUint64Array): unknown; value(pointer: unknown): bigint };
  UnsafePointerView: new (pointer: unknown) => { getInt32(): number; getCString(): string; getPointer(): unknown };
  execPath(): string;
  permissions: { querySync(descriptor: { name: "ffi" }): { state: string } };
}

/** The libc functions used, as Deno binds them. */
export interface Libc {
  syscall(n: bigint, a: bigint, b: bigint, c: bigint, d: bigint): bigint;
  prctl(option: number, a: bigint, b: bigint, c: bigint, d: bigint): number;
  open(path: Uint8Array, flags: number, mode: number): number;
  close(fd: number): number;
  execve(path: Uint8Array, argv: BigUint64Array, envp: unknown): number;
  getenv(name: Uint8Array): unknown;
  setenv(name: Uint8Array, value: Uint8Array, overwrite: number): number;
  __errno_location(): unknown;
  environ: unknown;
}

const SYMBOLS = {
  syscall: { parameters: ["i64", "u64", "u64", "u64", "u64"], result: "i64" },
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  open: { parameters: ["buffer", "i32", "u32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  execve: { parameters: ["buffer", "buffer", "pointer"], result: "i32" },
  getenv: { parameters: ["buffer"], result: "pointer" },
  setenv: { parameters: ["buffer", "buffer", "i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
  environ: { type: "pointer" },
};

let libc: { deno: DenoFfi; c: Libc } | null | undefined;

/**
 * libc through Deno's FFI, or null (not Deno, not Linux on x86-64 or arm64,
 * or no leave to load it); loaded once.
 *
 * @example
 * ```ts
 * import { loadLibc } from "./libc.ts";
 * const libc = loadLibc(); // null under Node
 * ```
 */
export function loadLibc(): { deno: DenoFfi; c: Libc } | null {
  if (libc !== undefined) return libc;
  const deno = (globalThis as unknown as { Deno?: DenoFfi }).Deno;
  libc = null;
  if (!deno || deno.build.os !== "linux" || !["x86_64", "aarch64"].includes(deno.build.arch)) return null;
  try {
    // Asked first: a process without broad FFI leave might otherwise be prompted for it.
    if (deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    libc = { deno, c: deno.dlopen("libc.so.6", SYMBOLS).symbols };
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * `s` as a C string (UTF-8, NUL-terminated).
 *
 * @example
 * ```ts
 * import { cString } from "./libc.ts";
 * cString("ab").length; // 3
 * ```
 */
export function cString(s: string): Uint8Array {
  return new TextEncoder().encode(s + "\0");
}

/**
 * The address of `buffer`, for a syscall argument (the caller keeps `buffer`
 * alive across the call).
 *
 * @example
 * ```ts ignore
 * import { address, loadLibc } from "./libc.ts";
 * const at = address(loadLibc()!, new Uint8Array(8));
 * ```
 */
export function address(l: { deno: DenoFfi }, buffer: Uint8Array | BigUint64Array): bigint {
  return l.deno.UnsafePointer.value(l.deno.UnsafePointer.of(buffer));
}

/**
 * The calling thread's `errno`, right after a failed call.
 *
 * @example
 * ```ts ignore
 * import { errno, loadLibc } from "./libc.ts";
 * const code = errno(loadLibc()!);
 * ```
 */
export function errno(l: { deno: DenoFfi; c: Libc }): number {
  return new l.deno.UnsafePointerView(l.c.__errno_location()).getInt32();
}

/**
 * The kernel's Landlock ABI version, or 0 where Landlock cannot be used from
 * here: not Linux, not Deno, no leave to load libc (`--allow-ffi`), or a
 * kernel without it (or with it switched off).
 *
 * @example
 * ```ts
 * import { landlockAbi } from "./libc.ts";
 * const abi = landlockAbi(); // 7 on Linux 6.15+, 0 under Node
 * ```
 */
export function landlockAbi(): number {
  const l = loadLibc();
  if (!l) return 0;
  const abi = l.c.syscall(SYS_CREATE_RULESET, 0n, 0n, CREATE_RULESET_VERSION, 0n);
  return abi > 0n ? Number(abi) : 0;
}

/**
 * Replaces this process with `command` (`execve`: same pid, stdio, process
 * group and parent), its environment ours plus `env`; returns only by
 * throwing when that failed.
 *
 * @example
 * ```ts ignore
 * import { execReplacing } from "./libc.ts";
 * execReplacing(["/bin/true"], { SVC_CHILD: "1" });
 * ```
 */
export function execReplacing(command: string[], env: Record<string, string> = {}): never {
  const l = loadLibc();
  if (!l) throw new Error("exec: libc cannot be reached from here");
  for (const [name, value] of Object.entries(env)) l.c.setenv(cString(name), cString(value), 1);
  const strings = command.map(cString);
  const argv = new BigUint64Array(strings.length + 1);
  strings.forEach((s, i) => (argv[i] = address(l, s)));
  // `environ` binds as the variable's address; its value is the environment's array.
  l.c.execve(strings[0], argv, new l.deno.UnsafePointerView(l.c.environ).getPointer());
  throw new Error(`exec of ${command[0]} failed (errno ${errno(l)})`);
}

/**
 * Whether {@linkcode execReplacing} can work here (Deno on Linux with leave
 * to load libc).
 *
 * @example
 * ```ts
 * import { canExecReplacing } from "./libc.ts";
 * canExecReplacing(); // false under Node
 * ```
 */
export function canExecReplacing(): boolean {
  return loadLibc() !== null;
}
