/**
 * The worker pool that runs user SQL: long-lived worker processes (two by
 * default, the concurrency limit), a bounded wait for a free one (then 429),
 * a time limit (then interrupt, then kill: 408), and a fresh worker for one
 * that died. Whatever a query does to its worker, the node keeps serving.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { spawnModule } from "../runtime/subprocess.ts";
import { CONCURRENCY, INTERRUPT_GRACE_MS, QUERY_TIMEOUT_MS, QUEUE_WAIT_MS } from "./limits.ts";
import type { QueryAnswerHead, QueryFailure, WorkerMessage, WorkerRequest } from "./protocol.ts";
import { LATE, within } from "./_deadline.ts";

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
  /** DuckDB `memory_limit` per worker. */
  memoryLimit?: string;
  /** DuckDB threads per worker. */
  threads?: number;
  /** Spill space per worker. */
  tempLimit?: string;
}

/** The version a query runs over. */
export interface SqlSource {
  /** Identity of the version (changes when its parts do). */
  key: string;
  /** Real paths of its parts. */
  parts: string[];
}

/** A query's answer: the head, and the rows as raw JSON text. */
export interface SqlAnswer extends Omit<QueryAnswerHead, "id" | "ok"> {
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
  /** Runs `sql` over `source`, returning at most `limit` rows. */
  query(source: SqlSource, sql: string, limit: number): Promise<SqlAnswer>;
  /** Starts every worker now rather than on the first queries. */
  warm(): Promise<void>;
  /** Process ids of the running workers (for operators and tests). */
  pids(): number[];
  /** Stops every worker. */
  close(): Promise<void>;
}

interface Pending {
  resolve: (message: QueryAnswerHead | QueryFailure, rows?: string) => void;
}

interface Worker {
  child: ChildProcess;
  temp: string;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  exited: Promise<void>;
  dead: boolean;
}

const WORKER_URL = new URL(import.meta.url.endsWith(".ts") ? "./worker_main.ts" : "./worker_main.js", import.meta.url);

/**
 * A pool of SQL workers over the store at `options.storeRoot`. Workers
 * start on the first query.
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
  const slots: (Worker | null)[] = Array(size).fill(null);
  const busy: boolean[] = Array(size).fill(false);
  const waiters: { grant: (slot: number) => void }[] = [];
  let nextId = 0;
  let closed = false;

  async function start(): Promise<Worker> {
    const temp = await mkdtemp(join(tmpdir(), "svc-sql-"));
    const child = spawnModule(WORKER_URL, {
      args: [
        "--store",
        options.storeRoot,
        "--temp",
        temp,
        "--home",
        homedir(),
        "--memory",
        options.memoryLimit ?? "1GB",
        "--threads",
        String(options.threads ?? 2),
        "--temp-limit",
        options.tempLimit ?? "2GB",
      ],
      denoPermissions: ["--allow-read", `--allow-write=${temp}`, "--allow-ffi"],
    });
    const worker: Worker = {
      child,
      temp,
      pending: new Map(),
      dead: false,
      ready: Promise.resolve(),
      exited: new Promise((resolve) => child.once("exit", () => resolve())),
    };
    let readyNow: () => void = () => {};
    let failStart: (e: Error) => void = () => {};
    worker.ready = new Promise<void>((resolve, reject) => {
      readyNow = resolve;
      failStart = reject;
    });
    let awaitingRows: { head: QueryAnswerHead; pending: Pending } | null = null;
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on("line", (line) => {
      if (awaitingRows) {
        const { head, pending } = awaitingRows;
        awaitingRows = null;
        pending.resolve(head, line);
        return;
      }
      let message: WorkerMessage;
      try {
        message = JSON.parse(line);
      } catch {
        console.error(`svc sql worker ${child.pid} wrote a line that is not a message; stopping it`);
        child.kill("SIGKILL");
        return;
      }
      if ("type" in message) return readyNow();
      const pending = worker.pending.get(message.id);
      if (!pending) return;
      worker.pending.delete(message.id);
      if (message.ok) awaitingRows = { head: message, pending };
      else pending.resolve(message);
    });
    worker.exited.then(() => {
      worker.dead = true;
      failStart(new Error("the SQL worker exited while starting"));
      const stopped: QueryFailure = {
        id: 0,
        ok: false,
        status: 500,
        error: "the SQL engine stopped while running this query; a fresh one has taken its place",
      };
      for (const pending of worker.pending.values()) pending.resolve(stopped);
      worker.pending.clear();
      rm(temp, { recursive: true, force: true }).catch(() => {});
    });
    child.stdin!.on("error", () => {});
    return worker;
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
    if (next) next.grant(slot);
    else busy[slot] = false;
  }

  async function worker(slot: number): Promise<Worker> {
    let w = slots[slot];
    if (!w || w.dead) {
      w = await start();
      slots[slot] = w;
    }
    const started = await within(w.ready.then(() => true, () => false), 60_000);
    if (started !== true) {
      await kill(slot, w);
      throw new SqlError(503, "the SQL engine could not start; the node's log has the details");
    }
    return w;
  }

  function send(w: Worker, request: WorkerRequest): void {
    w.child.stdin!.write(JSON.stringify(request) + "\n");
  }

  async function kill(slot: number, w: Worker): Promise<void> {
    w.child.kill("SIGKILL");
    await w.exited;
    if (slots[slot] === w) slots[slot] = null;
  }

  async function run(slot: number, source: SqlSource, sql: string, limit: number): Promise<SqlAnswer> {
    const w = await worker(slot);
    const id = ++nextId;
    const answer = new Promise<{ message: QueryAnswerHead | QueryFailure; rows?: string }>((resolve) => {
      w.pending.set(id, { resolve: (message, rows) => resolve({ message, rows }) });
    });
    send(w, { id, type: "query", sql, limit, key: source.key, parts: source.parts });
    const first = await within(answer, timeoutMs);
    if (first === LATE) {
      send(w, { id, type: "interrupt" });
      if (await within(answer, graceMs) === LATE) await kill(slot, w);
      const seconds = Math.round(timeoutMs / 100) / 10;
      throw new SqlError(408, `the query ran longer than ${seconds} seconds and was stopped`);
    }
    const { message, rows } = first;
    if (!message.ok) {
      if (message.status === 500 && !w.dead) await kill(slot, w);
      throw new SqlError(message.status, message.error);
    }
    const { id: _id, ok: _ok, ...head } = message;
    return { ...head, rows: rows ?? "[]" };
  }

  return {
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
    pids() {
      return slots.flatMap((w) => (w && !w.dead && w.child.pid ? [w.child.pid] : []));
    },
    async close() {
      closed = true;
      await Promise.all(slots.map(async (w) => {
        if (!w || w.dead) return;
        w.child.stdin!.end();
        if (await within(w.exited, 2000) === LATE) w.child.kill("SIGKILL");
        await w.exited;
      }));
    },
  };
}
