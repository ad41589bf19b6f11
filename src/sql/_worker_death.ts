/**
 * What a SQL worker's death means for the query it was running. A worker
 * that runs past its memory ceiling usually gets DuckDB's own "Out of
 * Memory" error, but an allocation that fails in the runtime instead (or
 * the kernel's OOM killer under a cgroup limit) ends the process: that is
 * the query's doing all the same, and it is answered as such.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { QueryFailure } from "./protocol.ts";

const TAIL_CHARS = 4096;

/**
 * What a dying runtime or DuckDB prints when an allocation fails: Rust's
 * `memory allocation of N bytes failed`, V8's `Fatal JavaScript out of
 * memory` / `Fatal process out of memory`, C++'s `std::bad_alloc`, libc's
 * `Cannot allocate memory`. And a thread the runtime could not start
 * (Deno's `unable to create worker threads`, Rust's `failed to spawn
 * thread`): a worker's ceiling is `RLIMIT_DATA`, which counts a new thread's
 * stack, so a query that has taken the worker to its ceiling leaves no room
 * for the thread the runtime starts next (seen once in about twenty suite runs:
 * `list(range)` over a billion rows ended its worker so).
 */
const MEMORY_MARKS =
  /memory allocation of \d+ bytes failed|out of memory|bad_alloc|cannot allocate memory|unable to create worker threads|failed to spawn thread/i;

/** The end of a worker's stderr. */
export interface StderrTail {
  /** The last few kilobytes read so far. */
  text(): string;
  /** Resolves when the stream has ended (after the process exits, once its last words are read). */
  ended: Promise<void>;
}

/**
 * Forwards the worker's stderr to the node's log line by line and keeps its
 * last few kilobytes for telling why it died.
 */
export function watchStderr(child: ChildProcess, warn: (message: string) => void): StderrTail {
  let tail = "";
  if (!child.stderr) return { text: () => tail, ended: Promise.resolve() };
  const lines = createInterface({ input: child.stderr, crlfDelay: Infinity });
  const ended = new Promise<void>((resolve) => lines.once("close", () => resolve()));
  lines.on("line", (line) => {
    tail = (tail + line + "\n").slice(-TAIL_CHARS);
    if (line.trim()) warn(`SQL worker ${child.pid}: ${line}`);
  });
  return { text: () => tail, ended };
}

/**
 * Whether a worker that ended with `signal` after printing `stderr` ran out
 * of memory: it said so as it died, or it was killed (SIGKILL) while the
 * kernel's OOM killer counted a kill in the node's cgroup (`oomKilled`).
 *
 * @example
 * ```ts
 * import { diedOfMemory } from "./_worker_death.ts";
 * diedOfMemory("SIGABRT", "memory allocation of 1048576 bytes failed\n", false); // true
 * diedOfMemory("SIGKILL", "", false); // false: someone killed it
 * ```
 */
export function diedOfMemory(signal: string | null, stderr: string, oomKilled: boolean): boolean {
  return (signal === "SIGKILL" && oomKilled) || MEMORY_MARKS.test(stderr);
}

/**
 * The failure every query still waiting on a dead worker gets: 400 naming
 * the ceiling when it ran out of memory (as DuckDB's own out-of-memory error
 * is), 500 otherwise.
 *
 * @example
 * ```ts
 * import { deathFailure } from "./_worker_death.ts";
 * deathFailure(true, "1024 MiB").status; // 400
 * ```
 */
export function deathFailure(ofMemory: boolean, ceiling: string): QueryFailure {
  if (ofMemory) {
    return {
      id: 0,
      ok: false,
      status: 400,
      error: `Out of Memory: the SQL engine running this query went past its ${ceiling} and stopped; ` +
        "a fresh one has taken its place",
    };
  }
  return {
    id: 0,
    ok: false,
    status: 500,
    error: `the SQL engine stopped while running this query (it may have needed more than its ${ceiling} ` +
      "of memory); a fresh one has taken its place",
  };
}
