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
import { type BudgetSource, CGROUP_MEMORY_ENV, memoryBudget, semiSpace, toldCgroupLimit } from "../launch/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { cgroupMemoryLimit } from "../runtime/mod.ts";
import { CONCURRENCY } from "../sql/mod.ts";
import type { MemoryPlan } from "../wire/mod.ts";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Resident memory of a node's runtime before any load (Deno, V8, the DuckDB library). */
const NODE_RUNTIME = 110 * MIB;
/** What making one export adds to the node's resident memory at its peak (measured: two at once, +300 MiB). */
const EXPORT_COST = 150 * MIB;
/** Resident memory of one SQL worker's runtime before its first query. */
const WORKER_RUNTIME = 60 * MIB;
/**
 * What a SQL worker's resident size holds of pages the node maps too (the
 * runtime's binary, DuckDB's library), which a memory cgroup charges once:
 * measured under load, 76 MiB of a worker's 140 were such file pages.
 */
const WORKER_SHARED = 72 * MIB;
/**
 * The page cache's share of what the runtimes leave: a quarter. At 512 MiB
 * it was 15% (51 MiB), which held a million of the bench's records only with
 * most of them compressed, and a random page cost a 512 MiB node 0.13 ms of
 * CPU against the default budget's 0.07; at 85 MiB three quarters of them
 * are plain. The node's DuckDB gave the 10% (its `memory_limit` of 64 MiB
 * against 128 made no difference to the mixed load's peak).
 */
const PAGE_CACHE_SHARE = 0.25;
/** The page cache's share at most: at it, blocks are kept plain; below it, compressed to make room. */
const PAGE_CACHE_MOST = 256 * MIB;
/**
 * Queries the node's DuckDB runs at once, at any budget: what they hold is in
 * its buffer pool, which `readEngine` bounds. With two (a 512 MiB budget's
 * before), pages missing the cache queued behind each other and behind the
 * blocks being decoded: a 20 s probe of the mixed load answered half the
 * random pages it did with four, and once decodes were shared, 5-10% fewer
 * requests; the peaks were alike.
 */
const READ_CONNECTIONS = 4;
/**
 * Budgets from this size up run the SQL pool's usual workers at once (two,
 * `CONCURRENCY`); smaller ones run one. A worker is a process of its own,
 * about 140 MiB resident under load (90 of them its own). With one under a
 * 512 MiB budget the mixed load's peak PSS was 443-449 MiB against 450-478
 * with two, and its requests answered 15,400-16,400 against 11,400-11,600:
 * on two cores the second worker's DuckDB took the CPU the pages and exports
 * needed.
 */
const ALL_SQL_WORKERS_FROM = GIB;
/** Memory left to the node per block of lines an export builds ahead in each query (1 to 8). */
const EXPORT_BLOCK_COST = 192 * MIB;

function within(value: number, low: number, high: number): number {
  return Math.floor(Math.min(high, Math.max(low, value)));
}

/**
 * Carves `budget` bytes into the node's shares. What the runtimes hold comes
 * off first; of the rest the page cache takes 25% (at most 256 MiB; below
 * that it compresses blocks to make room), the node's DuckDB 25% (128 to 512
 * MiB, for its four connections), a Parquet download 10% (at most 256 MiB),
 * each SQL worker's DuckDB 15% (at most 40% of the ceiling it runs under;
 * one worker runs under a 1 GiB budget, two from it),
 * and the remainder is the JavaScript heap's and the connections'.
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
  const sqlWorkers = budget >= ALL_SQL_WORKERS_FROM ? CONCURRENCY : 1;
  const free = Math.max(64 * MIB, budget - NODE_RUNTIME - sqlWorkers * WORKER_RUNTIME);
  const pageShare = within(free * PAGE_CACHE_SHARE, 4 * MIB, PAGE_CACHE_MOST);
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
    pageCacheCompressed: pageCache > 0 && pageCache < PAGE_CACHE_MOST,
    readEngine: within(free * 0.25, 128 * MIB, 512 * MIB),
    readConnections: READ_CONNECTIONS,
    download: within(free * 0.1, 32 * MIB, 256 * MIB),
    sqlWorkers,
    sqlWorker,
    sqlRecycleAbove: WORKER_RUNTIME + Math.floor(sqlWorker * 1.5),
    exportsAtOnce: within(free * 0.3 / EXPORT_COST, 1, 4),
    exportBlocks: within(free / EXPORT_BLOCK_COST, 1, 8),
    sqlWorkerShared: WORKER_SHARED,
    semiSpace: semiSpace(budget),
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
  return toldCgroupLimit(env[CGROUP_MEMORY_ENV], cgroupMemoryLimit);
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
  const budget = memoryBudget(raw, raw === null ? knownCgroupLimit(env) : null, totalmem());
  if (budget === null) {
    throw new UsageError(
      `--memory must be a size of at least 256MiB, such as 512MiB or 2GiB, not ${JSON.stringify(raw)}`,
    );
  }
  return memoryPlan(budget.bytes, budget.source, options);
}
