/**
 * What the process's memory cgroup says: its limit (a container's
 * `--memory`, a Kubernetes pod's `limits.memory`) and how many processes the
 * kernel's OOM killer has killed in it. cgroup v2 (`memory.max`,
 * `memory.events`) and v1 (`memory.limit_in_bytes`, `memory.oom_control`);
 * null where there is no such file or it may not be read.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = "/sys/fs/cgroup";
/** v1 writes "no limit" as a page-rounded 2^63; anything this large is none. */
const UNLIMITED = 2 ** 60;

/** The memory cgroup's folder and version, or null. */
function memoryCgroup(): { dir: string; v2: boolean } | null {
  const lines = readText("/proc/self/cgroup")?.split("\n") ?? [];
  const v1 = lines.map((l) => l.split(":")).find((f) => f.length >= 3 && f[1].split(",").includes("memory"));
  if (v1) {
    return pick([join(ROOT, "memory", v1.slice(2).join(":")), join(ROOT, "memory")], "memory.limit_in_bytes", false);
  }
  const v2 = lines.find((l) => l.startsWith("0::"));
  if (v2) return pick([join(ROOT, v2.slice(3)), ROOT], "memory.max", true);
  return null;
}

/** The first of `dirs` holding `file` (a cgroup namespace shows its own root as `/`). */
function pick(dirs: string[], file: string, v2: boolean): { dir: string; v2: boolean } | null {
  const dir = dirs.find((d) => readText(join(d, file)) !== null);
  return dir ? { dir, v2 } : null;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * The memory limit of this process's cgroup in bytes, or null when there is
 * none (or none can be read).
 *
 * @example
 * ```ts
 * import { cgroupMemoryLimit } from "./cgroup.ts";
 * const limit = cgroupMemoryLimit(); // 536870912 in a container run with --memory 512m
 * ```
 */
export function cgroupMemoryLimit(): number | null {
  const cgroup = memoryCgroup();
  if (!cgroup) return null;
  const text = readText(join(cgroup.dir, cgroup.v2 ? "memory.max" : "memory.limit_in_bytes"))?.trim();
  const bytes = Number(text);
  return text && Number.isFinite(bytes) && bytes > 0 && bytes < UNLIMITED ? bytes : null;
}

/**
 * How many processes the OOM killer has killed in this process's cgroup so
 * far, or null when that cannot be read.
 *
 * @example
 * ```ts
 * import { cgroupOomKills } from "./cgroup.ts";
 * const before = cgroupOomKills();
 * ```
 */
export function cgroupOomKills(): number | null {
  const cgroup = memoryCgroup();
  if (!cgroup) return null;
  const text = readText(join(cgroup.dir, cgroup.v2 ? "memory.events" : "memory.oom_control"));
  const match = text?.match(/^oom_kill (\d+)$/m);
  return match ? Number(match[1]) : null;
}
