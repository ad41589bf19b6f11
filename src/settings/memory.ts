/**
 * The node's memory budget (`--memory`, `SVC_NODE_MEMORY`) and how it is
 * carved: one figure for the whole process tree (the node and its SQL
 * workers) from which the page cache, the node's DuckDB, each Parquet
 * download's DuckDB and each SQL worker's DuckDB take their shares, after
 * what the runtimes themselves hold (measured: a node about 110 MiB, a SQL
 * worker about 60 MiB before its first query).
 *
 * @module
 */
import { totalmem } from "node:os";
import { CGROUP_MEMORY_ENV } from "../launch/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { cgroupMemoryLimit } from "../runtime/mod.ts";
import { parseBytes } from "../sql/mod.ts";
import type { MemoryPlan } from "../wire/mod.ts";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The smallest budget a node runs in: its runtimes, two SQL workers and a working margin. */
export const MIN_MEMORY_BUDGET = 256 * MIB;

/** Resident memory of a node's runtime before any load (Deno, V8, the DuckDB library). */
const NODE_RUNTIME = 110 * MIB;
/** What making one export adds to the node's resident memory at its peak (measured: two at once, +300 MiB). */
const EXPORT_COST = 150 * MIB;
/** Resident memory of one SQL worker's runtime before its first query. */
const WORKER_RUNTIME = 60 * MIB;

/** Where the budget came from. */
export type BudgetSource = MemoryPlan["source"];

/**
 * The default budget: three quarters of the cgroup's limit when there is
 * one (the rest is the kernel's and the container's other processes'), else a
 * quarter of the machine's memory; never below {@linkcode MIN_MEMORY_BUDGET}.
 *
 * @example
 * ```ts
 * import { defaultMemoryBudget } from "./memory.ts";
 * defaultMemoryBudget(512 * 1024 ** 2, 24 * 1024 ** 3); // { bytes: 402653184, source: "cgroup" }
 * ```
 */
export function defaultMemoryBudget(
  cgroupLimit: number | null,
  machine: number = totalmem(),
): { bytes: number; source: BudgetSource } {
  if (cgroupLimit !== null && cgroupLimit < machine) {
    return { bytes: Math.max(MIN_MEMORY_BUDGET, Math.floor(cgroupLimit * 0.75)), source: "cgroup" };
  }
  return { bytes: Math.max(MIN_MEMORY_BUDGET, Math.floor(machine / 4)), source: "machine" };
}

function within(value: number, low: number, high: number): number {
  return Math.floor(Math.min(high, Math.max(low, value)));
}

/**
 * Carves `budget` bytes into the node's shares. What the runtimes hold comes
 * off first; of the rest the page cache takes 15% (at most 256 MiB), the
 * node's DuckDB 20% (at most 512 MiB), a Parquet download 10% (at most
 * 256 MiB), each SQL worker's DuckDB 15% (at most 40% of the ceiling it runs
 * under), and the remainder is the JavaScript heap's and the connections'.
 * `pageCache`, when given, is the operator's own size: past its share it is
 * kept and said in `outside`.
 *
 * @example
 * ```ts
 * import { memoryPlan } from "./memory.ts";
 * const plan = memoryPlan(512 * 1024 ** 2, "flag");
 * plan.pageCache + plan.readEngine + plan.download + 2 * plan.sqlWorker < 512 * 1024 ** 2; // true
 * ```
 */
export function memoryPlan(
  budget: number,
  source: BudgetSource,
  options: { pageCache?: number | null; sqlCeiling?: number } = {},
): MemoryPlan {
  const free = Math.max(64 * MIB, budget - NODE_RUNTIME - 2 * WORKER_RUNTIME);
  const pageShare = within(free * 0.15, 4 * MIB, 256 * MIB);
  const outside: string[] = [];
  const pageCache = options.pageCache ?? pageShare;
  if (pageCache > pageShare) {
    outside.push(`the page cache (--page-cache ${formatSize(pageCache)}) is past its share of the memory budget`);
  }
  const sqlWorker = within(free * 0.15, 64 * MIB, (options.sqlCeiling ?? 4 * GIB) * 0.4);
  return {
    budget,
    source,
    pageCache,
    readEngine: within(free * 0.35, 128 * MIB, 512 * MIB),
    download: within(free * 0.1, 32 * MIB, 256 * MIB),
    sqlWorker,
    sqlRecycleAbove: WORKER_RUNTIME + Math.floor(sqlWorker * 1.5),
    exportsAtOnce: within(free * 0.3 / EXPORT_COST, 1, 4),
    outside,
  };
}

function formatSize(bytes: number): string {
  return bytes >= GIB ? `${Math.round((bytes / GIB) * 10) / 10}GiB` : `${Math.round(bytes / MIB)}MiB`;
}

/**
 * The cgroup's memory limit as this process can know it: from its launcher
 * (`SVC_CGROUP_MEMORY_LIMIT`, a number of bytes or `none`, set by `svc serve`
 * for the node it narrows, which may not read `/proc/self`), else read here.
 *
 * @example
 * ```ts
 * import { knownCgroupLimit } from "./memory.ts";
 * knownCgroupLimit({ SVC_CGROUP_MEMORY_LIMIT: "536870912" }); // 536870912
 * knownCgroupLimit({ SVC_CGROUP_MEMORY_LIMIT: "none" }); // null
 * ```
 */
export function knownCgroupLimit(env: Record<string, string | undefined>): number | null {
  const told = env[CGROUP_MEMORY_ENV];
  if (told === "none") return null;
  if (told !== undefined && /^\d+$/.test(told) && Number(told) > 0) return Number(told);
  return cgroupMemoryLimit();
}

/**
 * The node's plan from `--memory`/`SVC_NODE_MEMORY` (`raw`, null when not
 * given), the environment (for the cgroup's limit), and the page cache and SQL
 * ceiling given by hand, if they were.
 *
 * @example
 * ```ts
 * import { nodeMemoryPlan } from "./memory.ts";
 * nodeMemoryPlan("512MiB", {}).budget; // 536870912
 * ```
 */
export function nodeMemoryPlan(
  raw: string | null,
  env: Record<string, string | undefined>,
  options: { pageCache?: number | null; sqlCeiling?: number } = {},
): MemoryPlan {
  if (raw === null) {
    const fallback = defaultMemoryBudget(knownCgroupLimit(env));
    return memoryPlan(fallback.bytes, fallback.source, options);
  }
  const bytes = parseBytes(raw);
  if (bytes === null || bytes < MIN_MEMORY_BUDGET) {
    throw new UsageError(
      `--memory must be a size of at least 256MiB, such as 512MiB or 2GiB, not ${JSON.stringify(raw)}`,
    );
  }
  return memoryPlan(bytes, "flag", options);
}
