/**
 * A node's state, built once when the node starts (`createNode`): the store
 * and the readers over it, the SQL pool, the settings, the clock and the
 * log. Every service function takes it, or the part of it that it needs.
 *
 * @module
 */
import type { PageReader, ParquetWriters, ReadEngine } from "../parquet/mod.ts";
import type { SqlPool } from "../sql/mod.ts";
import type { ExportCache, Store } from "../store/mod.ts";
import type { FollowStatus, MemoryPlan } from "../wire/mod.ts";
import type { WriteCache } from "../writes/mod.ts";
import type { NodeMetrics } from "./metrics.ts";
import type { Turns } from "./turns.ts";
import type { MemoryGate } from "./memory_gate.ts";
import type { KeptColumns } from "./kept_columns.ts";
import type { ReadCopies } from "./read_copies.ts";
import type { IdleRecord } from "./memory.ts";

/** The node's view of its follow loop. */
export interface FollowView {
  /** The status of every followed project. */
  status(): Record<string, FollowStatus>;
}

/** Where log lines go; null for none (`--quiet`). */
export type LogSink = ((line: string) => void) | null;

/** The node's one log: request lines, warnings and errors all go through it. */
export interface NodeLog {
  /** One line per answered request (dropped under `--quiet`). */
  request(line: string): void;
  /** Whether request lines go anywhere: false under `--quiet`, so that no line is made to be dropped. */
  readonly requests: boolean;
  /** A note for the operator, such as what start-up tidied (dropped under `--quiet`). */
  info(line: string): void;
  /** Something the node survived that an operator should know of (`warning: ...`). */
  warn(message: string): void;
  /** A failure of the node's own (`error: ...`), with the error whose stack goes to the log. */
  error(message: string, error?: unknown): void;
}

/**
 * The node log over `requests` (request lines; null drops them) and `lines`
 * (warnings and errors; standard error by default).
 *
 * @example
 * ```ts
 * import { nodeLog } from "./state.ts";
 * const seen: string[] = [];
 * nodeLog(null, (line) => seen.push(line)).warn("the disk is nearly full");
 * seen; // ["warning: the disk is nearly full"]
 * ```
 */
export function nodeLog(requests: LogSink, lines: (line: string) => void = (l) => console.error(l)): NodeLog {
  return {
    request: (line) => requests?.(line),
    requests: requests !== null,
    info: (line) => requests?.(line),
    warn: (message) => lines(`warning: ${message}`),
    error: (message, error) => {
      const detail = error === undefined ? "" : `: ${(error as Error)?.stack ?? String(error)}`;
      lines(`error: ${message}${detail}`);
    },
  };
}

/** A node's state and services, shared by its HTTP routes, its MCP tools and local commands. */
export interface NodeState {
  /** The store, read side. */
  store: Store;
  /** Finished exports kept for the next download. */
  exports: ExportCache;
  /** The node's own DuckDB for pages, exports and statistics. */
  engine: ReadEngine;
  /** Versions of many small parts in one file each, to count from (see `read_copies.ts`). */
  readCopies: ReadCopies;
  /** Columns views filter and facet on, kept in memory as codes to count over (see `kept_columns.ts`). */
  keptColumns: KeptColumns;
  /** The DuckDB that writes contributions' parts, keeping no caches (see `WriteTarget.writer`). */
  writer: ReadEngine;
  /** Pages of records by row range. */
  pages: PageReader;
  /** The worker pool that runs user SQL. */
  sql: SqlPool;
  /** The store's real path (symlinks resolved), for the SQL sandbox; `store.root` is its absolute path. */
  storeRealPath: string;
  /** The node token, or null when the node has none (it also keys signed part URLs). */
  token: string | null;
  /** Whether every write is refused. */
  readOnly: boolean;
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
  /** The store directory as the operator named it (shown in `/healthz`). */
  storeAsNamed: string;
  /** When the node started. */
  since: Date;
  /** The clock, in milliseconds since the epoch. */
  now(): number;
  /** The follow loop, when the node follows projects. */
  follow: FollowView | null;
  /** The node's log: request lines, warnings and errors, every one through here. */
  log: NodeLog;
  /** What writes keep between requests (see `src/writes/`). */
  writes: WriteCache;
  /** Longest a followed project may go without a good sync before the node says it is not ready (null: no limit). */
  readyMaxLagMs: number | null;
  /** Where the node is in its life: `stopping` once a shutdown began. */
  lifecycle: { stopping: boolean };
  /** What the node counts for `GET /metrics`, or null when metrics are off. */
  metrics: NodeMetrics | null;
  /** The memory budget and its shares (`--memory`). */
  memory: MemoryPlan;
  /** Turns at making an export (`memory.exportsAtOnce` at once). */
  exportTurns: Turns;
  /** Turns at writing a Parquet download (each by a DuckDB of its own, `memory.download` each). */
  parquetTurns: Turns;
  /** The DuckDBs that write Parquet downloads, one kept warm for the next. */
  parquetWriters: ParquetWriters;
  /** The gate costly requests pass: 503 while the node is at its memory budget. */
  memoryGate: MemoryGate;
  /** Requests being answered now, and when the latest one ended (ms since the epoch), for trimming memory when idle. */
  activity: { inFlight: number; lastEnded: number };
  /** What the idle trim has done: how long it waits now, and how many times it has trimmed. */
  idle: IdleRecord;
}
