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
import { startWorker, type WorkerProcess } from "./_worker_process.ts";
import { unrefTimer } from "../runtime/timers.ts";
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
  /** Resident size after a query past which a worker is replaced (default: a quarter of the ceiling). */
  recycleAbove?: number;
  /** DuckDB threads per worker. */
  threads?: number;
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
}

/** How long a worker may sit without a query before it is stopped: ten minutes. */
export const IDLE_STOP_MS = 10 * 60_000;

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

/** A query that failed, with the status and headers for the client. */
export class SqlError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Extra headers (`retry-after`). */
  readonly headers: Record<string, string>;

  /** @param status HTTP status @param message for the client @param headers extra headers */
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "SqlError";
    this.status = status;
    this.headers = headers;
  }
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
  /** Stops every worker. */
  close(): Promise<void>;
}

/**
 * A pool of SQL workers over the store at `options.storeRoot`. Workers
 * start on the first query (or on `warm()`); one that dies or grew too large
 * is replaced at once; one left without a query for `idleMs` is stopped.
 *
 * @example
 * ```ts ignore
 * const pool = createSqlPool({ storeRoot: "/srv/svc-data" });
 * const answer = await pool.query({ key: "cities@2", parts }, "SELECT count(*) FROM records", 200);
 * await pool.close();
 * ```
 */
export function createSqlPool(options: SqlPoolOptions): SqlPool {
  const size = options.size ?? CONCURRENCY;
  const timeoutMs = options.timeoutMs ?? QUERY_TIMEOUT_MS;
  const queueWaitMs = options.queueWaitMs ?? QUEUE_WAIT_MS;
  const graceMs = options.interruptGraceMs ?? INTERRUPT_GRACE_MS;
  const slots: (WorkerProcess | null)[] = Array(size).fill(null);
  const starting: (Promise<WorkerProcess> | null)[] = Array(size).fill(null);
  const busy: boolean[] = Array(size).fill(false);
  const idleTimers: (ReturnType<typeof setTimeout> | undefined)[] = Array(size).fill(undefined);
  const idleMs = options.idleMs ?? IDLE_STOP_MS;
  const waiters: { grant: (slot: number) => void }[] = [];
  let nextId = 0;
  let closed = false;

  const memory = { ...workerMemory(options.memory ?? defaultSqlMemory()) };
  if (options.recycleAbove !== undefined) memory.recycleAbove = options.recycleAbove;
  const settings = {
    storeRoot: options.storeRoot,
    memory,
    threads: options.threads ?? 2,
    tempLimit: options.tempLimit ?? "2GB",
  };

  /** Part paths relative to the store: a worker may see the store elsewhere (`_worker_process.ts`). */
  const inStore = (parts: string[]) => parts.map((p) => relative(options.storeRoot, p).split(sep).join("/"));

  /** Starts the worker of `slot` and keeps its replacement coming when it exits, unless the pool closed. */
  function start(slot: number): Promise<WorkerProcess> {
    const started = startWorker(settings);
    starting[slot] = started;
    started.then((w) => {
      slots[slot] = w;
      let served = false;
      w.ready.then(() => (served = true), () => {});
      w.exited.then(() => {
        if (slots[slot] !== w) return;
        slots[slot] = null;
        // A worker that died after serving is replaced at once, so the next query does not wait for one;
        // one that could not start is retried by the next query only.
        if (served && !closed && !starting[slot]) start(slot).catch(() => {});
      });
    }, () => {}).finally(() => {
      if (starting[slot] === started) starting[slot] = null;
    });
    return started;
  }

  function acquire(): Promise<number> {
    if (closed) return Promise.reject(new SqlError(503, "the node is shutting down"));
    const free = busy.indexOf(false);
    if (free >= 0) {
      busy[free] = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: (slot: number) => {
          clearTimeout(timer);
          resolve(slot);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(
          new SqlError(
            429,
            `too many queries at once: ${size} are running and this one waited ${
              Math.round(queueWaitMs / 1000)
            } s; try again shortly`,
            { "retry-after": "2" },
          ),
        );
      }, queueWaitMs);
      waiters.push(waiter);
    });
  }

  function release(slot: number): void {
    const next = waiters.shift();
    if (next) return next.grant(slot);
    busy[slot] = false;
    clearTimeout(idleTimers[slot]);
    if (idleMs > 0 && !closed) idleTimers[slot] = unrefTimer(setTimeout(() => stopIdle(slot), idleMs));
  }

  /** Stops the worker of a slot that sat idle (not replaced: the next query starts one). */
  function stopIdle(slot: number): void {
    const w = slots[slot];
    if (busy[slot] || closed || !w || w.dead() || starting[slot]) return;
    slots[slot] = null;
    w.child.stdin!.end();
    within(w.exited, 2000).then((r) => r === LATE && w.child.kill("SIGKILL"));
  }

  async function worker(slot: number): Promise<WorkerProcess> {
    let w = slots[slot];
    if (!w || w.dead()) w = await (starting[slot] ?? start(slot));
    const started = await within(w.ready.then(() => true, () => false), 60_000);
    if (started !== true) {
      await kill(w);
      throw new SqlError(503, "the SQL engine could not start; the node's log has the details");
    }
    return w;
  }

  async function kill(w: WorkerProcess): Promise<void> {
    w.child.kill("SIGKILL");
    await w.exited;
  }

  /** Lets the worker of `slot` go (its answer is out) and starts its replacement now. */
  function retire(slot: number, w: WorkerProcess): void {
    if (slots[slot] === w) slots[slot] = null;
    w.child.stdin!.end();
    within(w.exited, 2000).then((r) => r === LATE && w.child.kill("SIGKILL"));
    if (!closed && !starting[slot]) start(slot).catch(() => {});
  }

  async function run(
    slot: number,
    source: SqlSource,
    sql: string | null,
    limit: number,
    seen: (w: WorkerProcess) => void = () => {},
  ): Promise<SqlAnswer> {
    const w = await worker(slot);
    seen(w);
    const id = ++nextId;
    const answer = w.answer(id);
    const version = { key: source.key, parts: inStore(source.parts) };
    w.send(sql === null ? { id, type: "settings", ...version } : { id, type: "query", sql, limit, ...version });
    const first = await within(answer, timeoutMs);
    if (first === LATE) {
      w.send({ id, type: "interrupt" });
      if (await within(answer, graceMs) === LATE) await kill(w);
      const seconds = Math.round(timeoutMs / 100) / 10;
      throw new SqlError(408, `the query ran longer than ${seconds} seconds and was stopped`);
    }
    const { message, rows } = first;
    if ((message.rss ?? 0) > memory.recycleAbove && !w.dead()) retire(slot, w);
    if (!message.ok) {
      if (message.status === 500 && !w.dead()) await kill(w);
      if (/out of memory/i.test(message.error)) {
        throw new SqlError(
          400,
          `the query needed more memory than this node gives one query (${formatBytes(memory.ceiling)}): ` +
            message.error,
        );
      }
      throw new SqlError(message.status, message.error);
    }
    const { id: _id, ok: _ok, rss: _rss, ...head } = message;
    return { ...head, rows: rows ?? "[]" };
  }

  return {
    maxRows: options.maxRows ?? MAX_ROWS,
    async query(source, sql, limit) {
      const slot = await acquire();
      try {
        return await run(slot, source, sql, limit);
      } finally {
        release(slot);
      }
    },
    async warm() {
      await Promise.all(slots.map(async (_, slot) => {
        if (busy[slot]) return;
        busy[slot] = true;
        try {
          await worker(slot);
        } finally {
          release(slot);
        }
      }));
    },
    async confinement(source) {
      const slot = await acquire();
      let privateView = false;
      try {
        const answer = await run(slot, source, null, 0, (w) => (privateView = w.viewed));
        return { privateView, settings: JSON.parse(answer.rows) };
      } finally {
        release(slot);
      }
    },
    pids() {
      return slots.flatMap((w) => (w && !w.dead() && w.child.pid ? [w.child.pid] : []));
    },
    async close() {
      closed = true;
      for (const timer of idleTimers) clearTimeout(timer);
      await Promise.all(starting.map((s) => s?.catch(() => null)));
      await Promise.all(slots.map(async (w) => {
        if (!w || w.dead()) return;
        w.child.stdin!.end();
        if (await within(w.exited, 2000) === LATE) w.child.kill("SIGKILL");
        await w.exited;
      }));
    },
  };
}
