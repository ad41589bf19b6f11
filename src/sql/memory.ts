/**
 * How much memory a SQL worker may have: a hard ceiling the operating system
 * enforces (`RLIMIT_DATA`, which DuckDB's own `memory_limit` does not cover:
 * strings, answers, the runtime), DuckDB's `memory_limit` below it, and the
 * size after a query past which a worker is replaced so that memory returns
 * to the machine.
 *
 * @module
 */
import { totalmem } from "node:os";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The memory settings of one worker, in bytes. */
export interface WorkerMemory {
  /** Hard ceiling of the worker's data memory; past it allocations fail. */
  ceiling: number;
  /** DuckDB's `memory_limit` (buffers, spilling starts there). */
  duckdb: number;
  /** A worker whose resident size is above this after a query is replaced. */
  recycleAbove: number;
}

/**
 * The default ceiling per worker for a machine with `total` bytes of memory:
 * a quarter of it (two workers take at most half), between 1 and 4 GiB.
 *
 * @example
 * ```ts
 * import { defaultSqlMemory } from "./memory.ts";
 * defaultSqlMemory(24 * 1024 ** 3); // 4 GiB
 * ```
 */
export function defaultSqlMemory(total: number = totalmem()): number {
  return Math.min(4 * GIB, Math.max(GIB, Math.floor(total / 4)));
}

/**
 * The memory settings that follow from a ceiling of `ceiling` bytes.
 *
 * @example
 * ```ts
 * import { workerMemory } from "./memory.ts";
 * workerMemory(2 * 1024 ** 3).duckdb; // 819 MiB
 * ```
 */
export function workerMemory(ceiling: number): WorkerMemory {
  return {
    ceiling,
    duckdb: Math.max(128 * MIB, Math.floor(ceiling * 0.4)),
    recycleAbove: Math.max(256 * MIB, Math.floor(ceiling / 4)),
  };
}

export { parseBytes } from "../launch/mod.ts";

/**
 * A size for people: `2 GiB`, `819 MiB`.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./memory.ts";
 * formatBytes(2 * 1024 ** 3); // "2 GiB"
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${Math.round((bytes / GIB) * 10) / 10} GiB`;
  return `${Math.round(bytes / MIB)} MiB`;
}
