/**
 * The worker pool that runs user SQL: long-lived worker processes (two by
 * default, the concurrency limit), a bounded wait for a free one (then 429),
 * a time limit (then interrupt, then kill: 408), and a fresh worker for one
 * that died. Whatever a query does to its worker, the node keeps serving.
 *
 * @module
 */
import { CONCURRENCY, INTERRUPT_GRACE_MS, MAX_ROWS, QUERY_TIMEOUT_MS, QUEUE_WAIT_MS } from "./limits.ts";
import { defaultSqlMemory, formatBytes, workerMemory } from "./memory.ts";
import type { QueryAnswerHead } from "./protocol.ts";
import { LATE, within } from "./_deadline.ts";
import { expectedWalls, residentOf, startWorker, type WorkerProcess } from "./_worker_process.ts";
import { type PoolState, poolStats, type Slot, type SqlPoolStats } from "./_pool_state.ts";
import { unrefTimer } from "../runtime/mod.ts";
import { semiSpaceFlags } from "../launch/mod.ts";
import { kindOfStatus, NodeError } from "../errors/mod.ts";
import { relative, sep } from "node:path";

/** Settings of a pool; every field has the spec's default. */
export interface SqlPoolOptions {
  /** The store's real path (what error messages must not show). */
  storeRoot: string;
  /** Worker processes, i.e. queries at once. */
  size?: number;
  /** Time limit of one query. */
  timeoutMs?: number;
  /** How long a query waits for a free worker. */
  queueWaitMs?: number;
  /** How long an interrupted query has before its worker is killed. */
  interruptGraceMs?: number;
  /** Hard memory ceiling per worker, in bytes (default: a quarter of the machine's, 1-4 GiB). */
  memory?: number;
  /** Resident size after a query past which a worker is replaced (a quarter of the ceiling, or this when smaller). */
  recycleAbove?: number;
  /** DuckDB's `memory_limit` in each worker, in bytes (default: 40% of the ceiling); past it DuckDB spills. */
  duckdbMemory?: number;
  /** DuckDB threads per worker. */
  threads?: number;
  /** Each semi-space of V8's young generation in a worker, in bytes (default: V8's own size). */
  semiSpace?: number | null;
  /** Spill space per worker. */
  tempLimit?: string;
  /**
   * Most rows one query may ask for (default {@linkcode MAX_ROWS}, the
   * spec's 1000); a local query from the command line may ask for more.
   */
  maxRows?: number;
  /**
   * A worker with no query for this long is stopped, giving its memory back;
   * the next query starts one again (default {@linkcode IDLE_STOP_MS}; 0 keeps
   * workers for good).
   */
  idleMs?: number;
  /** Where trouble with a worker is told (default standard error). */
  warn?: (message: string) => void;
  /**
   * Tests only, never wired to a setting: walls taken down, to show what the
   * others hold alone. `landlock`: workers start unconfined; `view`: without
   * a private view; `duckdb`: DuckDB's own sandbox and the statement checks
   * are off.
   */
  testOnlyWallsDown?: { landlock?: boolean; view?: boolean; duckdb?: boolean };
}

/** Which walls confine the SQL workers (see docs/security.md). */
export interface SqlWalls {
  /** Landlock: the kernel limits a worker to reading the store and writing its temp folder. */
  landlock: boolean;
  /** The private view of the filesystem: the store at a neutral path. */
  view: boolean;
  /** DuckDB's own settings: external access off, only the version's parts allowed, configuration locked. */
  duckdb: boolean;
}

/**
 * How long a worker may sit without a query before it is stopped: twenty
 * seconds, so that a node idle for a minute holds no worker (the next query
 * pays a worker's start, about half a second).
 */
export const IDLE_STOP_MS = 20_000;

/** The version a query runs over. */
export interface SqlSource {
  /** Identity of the version (changes when its parts do). */
  key: string;
  /** Real paths of its parts. */
  parts: string[];
}

/** A query's answer: the head, and the rows as raw JSON text. */
export interface SqlAnswer extends Omit<QueryAnswerHead, "id" | "ok" | "rss"> {
  /** JSON array of row arrays. */
  rows: string;
}

/** Runs user SQL on worker processes. */
export interface SqlPool {
  /** Most rows one query may ask for. */
  readonly maxRows: number;
  /** Runs `sql` over `source`, returning at most `limit` rows. */
  query(source: SqlSource, sql: string, limit: number): Promise<SqlAnswer>;
  /** Starts every worker now rather than on the first queries. */
  warm(): Promise<void>;
  /** Process ids of the running workers (for operators and tests). */
  pids(): number[];
  /**
   * What confines the workers' view of the host, for operators and tests:
   * whether they run in a private view of the filesystem, and the DuckDB
   * settings of `source`'s sandbox that hold a path (which user SQL may not
   * read; in a private view they name only the view's folders).
   */
  confinement(source: SqlSource): Promise<{ privateView: boolean; settings: [string, string][] }>;
  /** Queries running and waiting for a worker now, and how many may run at once. */
  stats(): SqlPoolStats;
  /**
   * Which walls confine the workers: what the latest worker to start had,
   * or before any started, what this node expects them to have.
   */
  walls(): Promise<SqlWalls>;
  /** Stops every worker. */
  close(): Promise<void>;
}

/**
 * A pool of SQL workers over the store at `options.storeRoot`. Workers
 * start on the first query (or on `warm()`); one that dies or grew too large
 * is replaced at once; one left without a query for `idleMs` is stopped.
 */
export function createSqlPool(options: SqlPoolOptions): SqlPool {
  const memory = { ...workerMemory(options.memory ?? defaultSqlMemory()) };
  // The stricter of the ceiling's own rule and the one asked for: a worker grown large is bloated for its next query.
  if (options.recycleAbove !== undefined) memory.recycleAbove = Math.min(memory.recycleAbove, options.recycleAbove);
  if (options.duckdbMemory !== undefined) memory.duckdb = Math.min(memory.duckdb, options.duckdbMemory);
  const pool: PoolState = {
    slots: Array.from({ length: options.size ?? CONCURRENCY }, () => ({
      worker: null,
      starting: null,
      busy: false,
      idleTimer: undefined,
    })),
    waiters: [],
    waitedMs: 0,
    nextId: 0,
    closed: false,
    storeRoot: options.storeRoot,
    timeoutMs: options.timeoutMs ?? QUERY_TIMEOUT_MS,
    queueWaitMs: options.queueWaitMs ?? QUEUE_WAIT_MS,
    graceMs: options.interruptGraceMs ?? INTERRUPT_GRACE_MS,
    idleMs: options.idleMs ?? IDLE_STOP_MS,
    settings: {
      storeRoot: options.storeRoot,
      memory,
      threads: options.threads ?? 2,
      tempLimit: options.tempLimit ?? "2GB",
      v8Flags: semiSpaceFlags(options.semiSpace ?? null),
      warn: options.warn ?? ((message: string) => console.error(`warning: ${message}`)),
      noLandlock: options.testOnlyWallsDown?.landlock,
      noView: options.testOnlyWallsDown?.view,
      unguarded: options.testOnlyWallsDown?.duckdb,
    },
    walls: null,
  };
  let expected: Promise<{ landlock: boolean; view: boolean }> | null = null;
  return {
    maxRows: options.maxRows ?? MAX_ROWS,
    query: (source, sql, limit) => withSlot(pool, (slot) => run(pool, slot, source, sql, limit)),
    async warm() {
      await Promise.all(pool.slots.map(async (slot) => {
        if (slot.busy) return;
        slot.busy = true;
        try {
          await worker(pool, slot);
        } finally {
          release(pool, slot);
        }
      }));
    },
    confinement: (source) =>
      withSlot(pool, async (slot) => {
        let privateView = false;
        const answer = await run(pool, slot, source, null, 0, (w) => (privateView = w.viewed));
        return { privateView, settings: JSON.parse(answer.rows) };
      }),
    pids() {
      return pool.slots.flatMap(({ worker: w }) => (w && !w.dead() && w.child.pid ? [w.child.pid] : []));
    },
    stats: () => poolStats(pool),
    walls: async () => ({
      // What the node expects is asked of the kernel once, not at every /healthz.
      ...(pool.walls ?? await (expected ??= expectedWalls(pool.settings))),
      duckdb: !pool.settings.unguarded,
    }),
    close: () => closePool(pool),
  };
}

/** Part paths relative to the store: a worker may see the store elsewhere (`_worker_process.ts`). */
function inStore(pool: PoolState, parts: string[]): string[] {
  return parts.map((p) => relative(pool.storeRoot, p).split(sep).join("/"));
}

/** Starts the worker of `slot` and keeps its replacement coming when it exits, unless the pool closed. */
function start(pool: PoolState, slot: Slot): Promise<WorkerProcess> {
  const started = startWorker(pool.settings);
  slot.starting = started;
  started.then((w) => {
    slot.worker = w;
    let served = false;
    w.ready.then(() => {
      served = true;
      if (pool.walls !== null && pool.walls.view !== w.viewed) {
        pool.settings.warn(
          w.viewed
            ? "SQL workers have their private view of the filesystem again"
            : "an SQL worker started without its private view of the filesystem (see docs/security.md)",
        );
      }
      pool.walls = { landlock: w.landlock() > 0, view: w.viewed };
    }, () => {});
    w.exited.then(() => {
      if (slot.worker !== w) return;
      slot.worker = null;
      // A worker that died after serving is replaced at once, so the next query does not wait for one;
      // one that could not start is retried by the next query only.
      if (served && !pool.closed && !slot.starting) start(pool, slot).catch(() => {});
    });
  }, () => {}).finally(() => {
    if (slot.starting === started) slot.starting = null;
  });
  return started;
}

/** Runs `fn` on a free slot, waiting for one within the queue wait (then busy). */
async function withSlot<T>(pool: PoolState, fn: (slot: Slot) => Promise<T>): Promise<T> {
  const slot = await acquire(pool);
  try {
    return await fn(slot);
  } finally {
    release(pool, slot);
  }
}

function acquire(pool: PoolState): Promise<Slot> {
  if (pool.closed) return Promise.reject(new NodeError("unavailable", "the node is shutting down"));
  const free = pool.slots.find((slot) => !slot.busy);
  if (free) {
    free.busy = true;
    return Promise.resolve(free);
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const waiter = {
      grant: (slot: Slot) => {
        clearTimeout(timer);
        pool.waitedMs += performance.now() - started;
        resolve(slot);
      },
    };
    const timer = setTimeout(() => {
      pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
      pool.waitedMs += performance.now() - started;
      const waited = Math.round(pool.queueWaitMs / 1000);
      reject(
        new NodeError(
          "busy",
          `too many queries at once: ${pool.slots.length} are running and this one waited ${waited} s; ` +
            "try again shortly",
          { "retry-after": "2" },
        ),
      );
    }, pool.queueWaitMs);
    pool.waiters.push(waiter);
  });
}

function release(pool: PoolState, slot: Slot): void {
  const next = pool.waiters.shift();
  if (next) return next.grant(slot);
  slot.busy = false;
  clearTimeout(slot.idleTimer);
  if (pool.idleMs > 0 && !pool.closed) {
    slot.idleTimer = unrefTimer(setTimeout(() => stopIdle(pool, slot), pool.idleMs));
  }
}

/** Stops the worker of a slot that sat idle (not replaced: the next query starts one). */
function stopIdle(pool: PoolState, slot: Slot): void {
  const w = slot.worker;
  if (slot.busy || pool.closed || !w || w.dead() || slot.starting) return;
  slot.worker = null;
  w.stop();
}

/**
 * The ready worker of `slot`, started if need be; a fresh one when the
 * running one may not read every one of `parts` (its Landlock rules predate
 * their project).
 */
async function worker(pool: PoolState, slot: Slot, parts: string[] = []): Promise<WorkerProcess> {
  for (let fresh = 0;; fresh++) {
    let w = slot.worker;
    if (!w || w.dead()) w = await (slot.starting ?? start(pool, slot));
    const started = await within(w.ready.then(() => true, () => false), 60_000);
    if (started !== true) {
      await kill(w);
      throw new NodeError("unavailable", "the SQL engine could not start; the node's log has the details");
    }
    if (fresh === 2 || parts.every((part) => w.reads(part))) return w;
    if (slot.worker === w) slot.worker = null;
    w.stop();
  }
}

async function kill(w: WorkerProcess): Promise<void> {
  w.child.kill("SIGKILL");
  await w.exited;
}

/** Lets the worker of `slot` go (its answer is out) and starts its replacement now. */
function retire(pool: PoolState, slot: Slot, w: WorkerProcess): void {
  if (slot.worker === w) slot.worker = null;
  w.stop();
  if (!pool.closed && !slot.starting) start(pool, slot).catch(() => {});
}

/** Runs a query (or, with `sql` null, the settings request) on the worker of `slot`. */
async function run(
  pool: PoolState,
  slot: Slot,
  source: SqlSource,
  sql: string | null,
  limit: number,
  seen: (w: WorkerProcess) => void = () => {},
  retried = false,
): Promise<SqlAnswer> {
  const w = await worker(pool, slot, source.parts);
  seen(w);
  const id = ++pool.nextId;
  const answer = w.answer(id);
  const version = { key: source.key, parts: inStore(pool, source.parts) };
  w.send(sql === null ? { id, type: "settings", ...version } : { id, type: "query", sql, limit, ...version });
  const first = await within(answer, pool.timeoutMs);
  if (first === LATE) {
    w.send({ id, type: "interrupt" });
    if (await within(answer, pool.graceMs) === LATE) await kill(w);
    const seconds = Math.round(pool.timeoutMs / 100) / 10;
    throw new NodeError("timeout", `the query ran longer than ${seconds} seconds and was stopped`);
  }
  // A worker that died before it read the query (killed while idle, its exit not seen yet) never ran it: a fresh
  // one does, once.
  if (first.unread && !retried) return await run(pool, slot, source, sql, limit, seen, true);
  const { message, rows } = first;
  const memory = pool.settings.memory;
  const rss = message.rss ?? (w.landlock() > 0 ? await residentOf(w.child.pid) : 0);
  slot.rss = { of: w, bytes: rss };
  if (rss > memory.recycleAbove && !w.dead()) retire(pool, slot, w);
  if (!message.ok) {
    if (message.status === 500 && !w.dead()) await kill(w);
    if (/out of memory/i.test(message.error)) {
      throw new NodeError(
        "bad-request",
        `the query needed more memory than this node gives one query (${formatBytes(memory.ceiling)}): ` +
          message.error,
      );
    }
    throw new NodeError(kindOfStatus(message.status), message.error);
  }
  const { id: _id, ok: _ok, rss: _rss, ...head } = message;
  return { ...head, rows: rows ?? "[]" };
}

async function closePool(pool: PoolState): Promise<void> {
  pool.closed = true;
  for (const slot of pool.slots) clearTimeout(slot.idleTimer);
  await Promise.all(pool.slots.map((slot) => slot.starting?.catch(() => null)));
  await Promise.all(pool.slots.map(async ({ worker: w }) => {
    if (w && !w.dead()) await w.stop();
  }));
}
