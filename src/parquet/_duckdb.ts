/**
 * The node's own DuckDB: an in-process instance for trusted, fixed queries
 * (data pages, exports) over parts of one store. User SQL never runs here.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tempRoot } from "../runtime/paths.ts";
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
  /** Runs `fn` on a free connection. */
  use<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T>;
  /** A connection of its own (see {@linkcode Session}); the caller closes it. */
  session(): Promise<Session>;
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

/**
 * Opens an engine that can read files under `root` and nothing else.
 */
export async function openReadEngine(root: string, size = 4): Promise<ReadEngine> {
  const realRoot = await realpath(root).catch(() => root);
  const temp = await mkdtemp(join(tempRoot(), "svc-read-"));
  const db = await DuckDBInstance.create(":memory:", {
    threads: "2",
    memory_limit: "512MB",
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
  });
  const setup = await db.connect();
  await setup.run(`SET temp_directory = ${sqlString(temp)}`);
  await setup.run(`SET max_temp_directory_size = '1GB'`);
  await setup.run(`SET parquet_metadata_cache = true`);
  await setup.run(`SET allowed_directories = [${sqlString(realRoot + sep)}, ${sqlString(root + sep)}]`);
  await setup.run(`SET enable_external_access = false`);
  await setup.run(`SET lock_configuration = true`);
  const idle: DuckDBConnection[] = [setup];
  for (let i = 1; i < size; i++) idle.push(await db.connect());
  const waiting: ((c: DuckDBConnection) => void)[] = [];
  let closed = false;

  function release(c: DuckDBConnection) {
    const next = waiting.shift();
    if (next) next(c);
    else idle.push(c);
  }

  const running = new Set<Promise<unknown>>();
  const sessions = new Set<Session>();

  function openSession(c: DuckDBConnection): Session {
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
            sessions.delete(session);
          });
        }
        return chain.then(() => {});
      },
    };
    sessions.add(session);
    return session;
  }

  return {
    use(fn) {
      if (closed) return Promise.reject(new Error("the read engine is closed"));
      const call = (async () => {
        const c = idle.pop() ?? await new Promise<DuckDBConnection>((resolve) => waiting.push(resolve));
        try {
          return await fn(c);
        } finally {
          release(c);
        }
      })();
      running.add(call);
      call.catch(() => {}).finally(() => running.delete(call));
      return call;
    },
    async session() {
      if (closed) throw new Error("the read engine is closed");
      const connecting = db.connect();
      running.add(connecting);
      try {
        return openSession(await connecting);
      } finally {
        running.delete(connecting);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...running]);
      await Promise.all([...sessions].map((s) => s.close()));
      for (const c of idle) c.closeSync();
      db.closeSync();
      await rm(temp, { recursive: true, force: true });
    },
  };
}
