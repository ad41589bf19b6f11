/**
 * User SQL over one version, seen as the table `records`: a pool of worker
 * processes running locked-down native DuckDB, with the spec's limits.
 *
 * @module
 */
export { CONCURRENCY, DEFAULT_ROWS, MAX_SQL_CHARS, QUERY_TIMEOUT_MS, QUEUE_WAIT_MS } from "./limits.ts";
export {
  createSqlPool,
  type SqlAnswer,
  type SqlPool,
  type SqlPoolOptions,
  type SqlSource,
  type SqlWalls,
} from "./pool.ts";
export type { SqlPoolStats } from "./_pool_state.ts";
export { scrubber } from "./scrub.ts";
export { sqlSource } from "./source.ts";
export { DYNAMIC_SQL_CALLS, leadingKeyword, NODE_INTERNALS, nodeInternal, startsAsRead } from "./statement.ts";
export { defaultSqlMemory } from "./memory.ts";
export { formatBytes } from "./memory.ts";
export { parseBytes } from "./memory.ts";
