/**
 * What the process's memory cgroup says (see `launch`'s reading of it), read
 * with `node:fs` so that it works under both runtimes.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { cgroupMemoryLimitWith, cgroupOomKillsWith } from "../launch/mod.ts";

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
  return cgroupMemoryLimitWith(readText);
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
  return cgroupOomKillsWith(readText);
}
