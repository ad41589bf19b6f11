/**
 * The node's own DuckDB: an in-process instance for trusted, fixed queries
 * (data pages, exports) over parts of one store. User SQL never runs here.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import process from "node:process";
import { tempRoot } from "../runtime/mod.ts";
import { join, sep } from "node:path";

/**
 * A connection of its own, for a long stream or a write: its calls run one
 * after another, and closing it waits for the call under way (a connection
 * closed under a running query takes the process down with it).
 */
export interface Session {
  /** Runs `fn` on the session's connection once the calls before it are done; rejects once the session is closed. */
  run<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Closes the connection after the call under way; calls not yet started are refused. */
  close(): Promise<void>;
}

/** A small pool of connections to one locked-down in-process DuckDB. */
export interface ReadEngine {
  /** Runs `fn` on a free connection; with `first`, ahead of the calls already waiting for one. */
  use<T>(fn: (c: DuckDBConnection) => Promise<T>, options?: { first?: boolean }): Promise<T>;
  /** A connection of its own (see {@linkcode Session}); the caller closes it. */
  session(): Promise<Session>;
  /**
   * The one folder the engine may write to (besides spilling), for the files
   * its `COPY` statements write (downloads' lines); removed when it closes.
   */
  readonly scratch: string;
  /** Hands the memory DuckDB's allocator and the C library's keep free back to the system (see {@linkcode returnFreeMemory}). */
  returnFreeMemory(): Promise<void>;
  /** Waits for the calls under way, closes every session and connection, then the instance. */
  close(): Promise<void>;
}

const SESSION_CLOSED = "the connection is closed";

/** SQL text for a string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** SQL text for a quoted identifier (a column name). */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The engine's parts: the instance, its pooled connections, the calls and sessions under way. */
interface EngineState {
  db: DuckDBInstance;
  temp: string;
  idle: DuckDBConnection[];
  waiting: ((c: DuckDBConnection) => void)[];
  running: Set<Promise<unknown>>;
  sessions: Set<Session>;
  closed: boolean;
}

/** What a locked DuckDB may touch, and how it holds memory (see {@linkcode lockedDuckDB}). */
export interface LockedDuckDBOptions {
  /** The only folders it reads and writes files in, each also by its real path. */
  folders: readonly string[];
  /** Where it spills (within its cap of 1 GB). */
  temp: string;
  /** DuckDB's `memory_limit`, in bytes. */
  memoryLimit: number;
  /** Keep what was read of files (Parquet metadata, file blocks) for the next read, on every connection. */
  caches: boolean;
}

/**
 * An in-memory DuckDB that reads and writes files under `folders` only (its
 * extensions never loaded nor installed, external access off), spills to
 * `temp`, gives freed memory back, its settings locked; and the connection
 * that set it up. The node's read engine and its Parquet writers are made
 * here, so that one way of locking DuckDB down serves both.
 *
 * @example
 * ```ts ignore
 * const { db, setup } = await lockedDuckDB({ folders: ["/store"], temp: "/tmp/x", memoryLimit: 2 ** 28, caches: true });
 * ```
 */
export async function lockedDuckDB(
  options: LockedDuckDBOptions,
): Promise<{ db: DuckDBInstance; setup: DuckDBConnection }> {
  const real = await Promise.all(options.folders.map((f) => realpath(f).catch(() => f)));
  const allowed = [...new Set([...options.folders, ...real])].map((d) => sqlString(d + sep));
  const db = await DuckDBInstance.create(":memory:", {
    threads: "2",
    memory_limit: duckdbSize(options.memoryLimit),
    ...RETURNING_ALLOCATOR,
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
    // A view's places (`SELECT part, row ... WHERE ... LIMIT 10`) took 7 ms as DuckDB's own late materialization (the
    // filtered scan joined back to a second scan) against 2 ms without; the node fetches records by place itself.
    late_materialization_max_rows: "0",
  });
  try {
    const setup = await db.connect();
    await setup.run(`SET temp_directory = ${sqlString(options.temp)}`);
    await setup.run(`SET max_temp_directory_size = '1GB'`);
    // GLOBAL: a plain SET (session scope for this option) left the cache off on every other connection.
    await setup.run(`SET GLOBAL parquet_metadata_cache = ${options.caches}`);
    await setup.run(`SET GLOBAL enable_external_file_cache = ${options.caches}`);
    await setup.run(`SET allowed_directories = [${allowed.join(", ")}]`);
    await setup.run(`SET enable_external_access = false`);
    await setup.run(`SET lock_configuration = true`);
    return { db, setup };
  } catch (e) {
    db.closeSync();
    throw e;
  }
}

/**
 * DuckDB's allocator settings that give memory back to the system: its
 * allocator keeps freed memory for reuse, and by default flushes it only after
 * a task that peaked past 128 MiB; here past 8 MiB, and a background thread
 * purges what stays unused.
 */
export const RETURNING_ALLOCATOR = {
  allocator_flush_threshold: "8MiB",
  allocator_background_threads: "true",
} as const;

/**
 * A size in bytes as DuckDB's settings take it (whole MiB).
 *
 * @example
 * ```ts
 * import { duckdbSize } from "./_duckdb.ts";
 * duckdbSize(512 * 1024 * 1024); // "512MiB"
 * ```
 */
export function duckdbSize(bytes: number): string {
  return `${Math.max(1, Math.floor(bytes / (1024 * 1024)))}MiB`;
}

/** How an engine is opened. */
export interface ReadEngineOptions {
  /** Pooled connections (default 4). */
  connections?: number;
  /** DuckDB's `memory_limit` in bytes (default 512 MiB): past it DuckDB spills to its temp folder or says it is out of memory. */
  memoryLimit?: number;
  /**
   * Keep what was read of files (Parquet metadata, file blocks) for the next
   * read of them (default true). An engine that reads each file once (a
   * writer folding parts) keeps nothing: its caches would hold an entry per
   * file it ever read.
   */
  caches?: boolean;
}

/**
 * Opens an engine that can read files under `root` and nothing else, with
 * `options.connections` pooled connections.
 */
export async function openReadEngine(root: string, options: ReadEngineOptions = {}): Promise<ReadEngine> {
  const size = options.connections ?? 4;
  // Named for this process: a later start removes it if this one is killed while it lives (`OWNED_TEMP_FOLDER`).
  const temp = await mkdtemp(join(tempRoot(), `svc-read-${process.pid}-`));
  const scratch = join(temp, "files");
  await mkdir(scratch);
  const { db, setup } = await lockedDuckDB({
    folders: [root, scratch],
    temp,
    memoryLimit: options.memoryLimit ?? 512 * 1024 * 1024,
    caches: options.caches ?? true,
  });
  const state: EngineState = {
    db,
    temp,
    idle: [setup],
    waiting: [],
    running: new Set(),
    sessions: new Set(),
    closed: false,
  };
  for (let i = 1; i < size; i++) state.idle.push(await db.connect());
  return {
    scratch,
    use: (fn, options) => useConnection(state, fn, options?.first ?? false),
    session: () => newSession(state),
    returnFreeMemory,
    close: () => closeEngine(state),
  };
}

/**
 * Hands back to the system the memory DuckDB's allocator keeps free for
 * reuse, and the C library's: an instance does both when it closes
 * (`Allocator::FlushAll`, which purges jemalloc's arenas and calls
 * `malloc_trim`), and nothing else asks for it, so a scratch instance is
 * opened and closed. After a burst this gave back about 20 MiB of a node's
 * resident memory that freeing alone had not (docs/benchmarks.md, "memory").
 */
async function returnFreeMemory(): Promise<void> {
  const scratch = await DuckDBInstance.create(":memory:", {
    threads: "1",
    enable_external_access: "false",
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
  });
  scratch.closeSync();
}

function useConnection<T>(state: EngineState, fn: (c: DuckDBConnection) => Promise<T>, first: boolean): Promise<T> {
  if (state.closed) return Promise.reject(new Error("the read engine is closed"));
  const call = (async () => {
    const c = state.idle.pop() ??
      await new Promise<DuckDBConnection>((resolve) =>
        first ? state.waiting.unshift(resolve) : state.waiting.push(resolve)
      );
    try {
      return await fn(c);
    } finally {
      const next = state.waiting.shift();
      if (next) next(c);
      else state.idle.push(c);
    }
  })();
  state.running.add(call);
  call.catch(() => {}).finally(() => state.running.delete(call));
  return call;
}

async function newSession(state: EngineState): Promise<Session> {
  if (state.closed) throw new Error("the read engine is closed");
  const connecting = state.db.connect();
  state.running.add(connecting);
  try {
    return sessionOver(state, await connecting);
  } finally {
    state.running.delete(connecting);
  }
}

/** A session on its own connection, whose calls run one at a time and whose close waits for the call under way. */
function sessionOver(state: EngineState, c: DuckDBConnection): Session {
  let chain: Promise<unknown> = Promise.resolve();
  let ended = false;
  const session: Session = {
    run(fn) {
      const call = chain.then(() => ended ? Promise.reject(new Error(SESSION_CLOSED)) : fn(c));
      chain = call.catch(() => {});
      return call;
    },
    close() {
      if (!ended) {
        ended = true;
        chain = chain.then(() => {
          c.closeSync();
          state.sessions.delete(session);
        });
      }
      return chain.then(() => {});
    },
  };
  state.sessions.add(session);
  return session;
}

async function closeEngine(state: EngineState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  await Promise.allSettled([...state.running]);
  await Promise.all([...state.sessions].map((s) => s.close()));
  for (const c of state.idle) c.closeSync();
  state.db.closeSync();
  await rm(state.temp, { recursive: true, force: true });
}
