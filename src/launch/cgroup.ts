/**
 * What the process's memory cgroup says, through a file reader given by the
 * caller (this floor may not use `node:`): its limit (a container's
 * `--memory`, a Kubernetes pod's `limits.memory`) and how many processes the
 * kernel's OOM killer has killed in it. cgroup v2 (`memory.max`,
 * `memory.events`) and v1 (`memory.limit_in_bytes`, `memory.oom_control`);
 * null where there is no such file or it may not be read.
 *
 * @module
 */

/** Reads a whole text file, or null when it cannot. */
export type ReadText = (path: string) => string | null;

/** The variable in which `svc serve` tells the node it narrows its cgroup's memory limit (it may not read it). */
export const CGROUP_MEMORY_ENV = "SVC_CGROUP_MEMORY_LIMIT";

const ROOT = "/sys/fs/cgroup";
/** v1 writes "no limit" as a page-rounded 2^63; anything this large is none. */
const UNLIMITED = 2 ** 60;

/**
 * The memory cgroup's folder and version, or null. Where `/proc/self/cgroup`
 * may not be read (Deno allows it only with every permission), the mounted
 * root is taken: in a container that is the container's own group.
 */
function memoryCgroup(read: ReadText): { dir: string; v2: boolean } | null {
  const own = read("/proc/self/cgroup");
  if (own === null) {
    return pick(read, [ROOT], "memory.max", true) ?? pick(read, [`${ROOT}/memory`], "memory.limit_in_bytes", false);
  }
  const lines = own.split("\n");
  const v1 = lines.map((l) => l.split(":")).find((f) => f.length >= 3 && f[1].split(",").includes("memory"));
  if (v1) {
    const path = v1.slice(2).join(":");
    return pick(read, [`${ROOT}/memory${path === "/" ? "" : path}`, `${ROOT}/memory`], "memory.limit_in_bytes", false);
  }
  const v2 = lines.find((l) => l.startsWith("0::"));
  if (v2) {
    const path = v2.slice(3);
    return pick(read, [`${ROOT}${path === "/" ? "" : path}`, ROOT], "memory.max", true);
  }
  return null;
}

/** The first of `dirs` holding `file` (a cgroup namespace shows its own root as `/`). */
function pick(read: ReadText, dirs: string[], file: string, v2: boolean): { dir: string; v2: boolean } | null {
  const dir = dirs.find((d) => read(`${d}/${file}`) !== null);
  return dir ? { dir, v2 } : null;
}

/**
 * The memory limit of this process's cgroup in bytes, or null when there is
 * none (or none can be read).
 *
 * @example
 * ```ts
 * import { cgroupMemoryLimitWith } from "./cgroup.ts";
 * const read = (path: string) => {
 *   try {
 *     return Deno.readTextFileSync(path);
 *   } catch {
 *     return null;
 *   }
 * };
 * const limit = cgroupMemoryLimitWith(read); // 536870912 under --memory 512m
 * ```
 */
export function cgroupMemoryLimitWith(read: ReadText): number | null {
  const cgroup = memoryCgroup(read);
  if (!cgroup) return null;
  const text = read(`${cgroup.dir}/${cgroup.v2 ? "memory.max" : "memory.limit_in_bytes"}`)?.trim();
  const bytes = Number(text);
  return text && Number.isFinite(bytes) && bytes > 0 && bytes < UNLIMITED ? bytes : null;
}

/**
 * The cgroup's memory limit as `told` (the value of `SVC_CGROUP_MEMORY_LIMIT`
 * that `svc serve` gives the node it narrows): a number of bytes, `none`, or
 * else (absent, `0`, garbage) what `read` finds in the cgroup itself.
 *
 * @example
 * ```ts
 * import { toldCgroupLimit } from "./cgroup.ts";
 * toldCgroupLimit("536870912", () => null); // 536870912
 * toldCgroupLimit("none", () => 1024); // null
 * toldCgroupLimit("lots", () => 1024); // 1024
 * ```
 */
export function toldCgroupLimit(told: string | undefined, read: () => number | null): number | null {
  if (told === "none") return null;
  if (told !== undefined && /^\d+$/.test(told) && Number(told) > 0) return Number(told);
  return read();
}

/**
 * How many processes the OOM killer has killed in this process's cgroup so
 * far, or null when that cannot be read.
 *
 * @example
 * ```ts
 * import { cgroupOomKillsWith } from "./cgroup.ts";
 * const fake = { "/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/memory.max": "max\n", "/sys/fs/cgroup/memory.events": "oom_kill 2\n" };
 * cgroupOomKillsWith((path) => (fake as Record<string, string>)[path] ?? null); // 2
 * ```
 */
export function cgroupOomKillsWith(read: ReadText): number | null {
  const cgroup = memoryCgroup(read);
  if (!cgroup) return null;
  const text = read(`${cgroup.dir}/${cgroup.v2 ? "memory.events" : "memory.oom_control"}`);
  const match = text?.match(/^oom_kill (\d+)$/m);
  return match ? Number(match[1]) : null;
}

/**
 * The C library's allocator settings under which freed memory goes back to
 * the system instead of staying with the process: two arenas rather than
 * eight a core (each keeps its own free memory), and fixed thresholds past
 * which a block is its own mapping and the heap's free top is returned (by
 * default both rise with the largest block freed, up to 32 MiB). Measured
 * (`deno task bench memory`): a node after a burst and an idle minute held
 * 213 MiB without them and 154 MiB with them. Set for the processes svc
 * starts (the narrowed node, the container's node, SQL workers) unless the
 * operator set them.
 */
export const RETURNING_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_TRIM_THRESHOLD_: "131072",
  MALLOC_MMAP_THRESHOLD_: "262144",
};

/**
 * {@linkcode RETURNING_MALLOC_ENV} less what `env` already sets.
 *
 * @example
 * ```ts
 * import { returningMalloc } from "./cgroup.ts";
 * returningMalloc({ MALLOC_ARENA_MAX: "4" }); // { MALLOC_TRIM_THRESHOLD_: "131072", MALLOC_MMAP_THRESHOLD_: "262144" }
 * ```
 */
export function returningMalloc(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(RETURNING_MALLOC_ENV).filter(([name]) => env[name] === undefined));
}
