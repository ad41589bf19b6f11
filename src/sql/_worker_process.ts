/**
 * One SQL worker process as the pool sees it: started with the store as its
 * working directory (so DuckDB is given only paths relative to it), a
 * private temp folder for spilling, a hard memory ceiling, and read line by
 * line for its answers.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { spawnModule } from "../runtime/subprocess.ts";
import { homeOrNull, tempRoot } from "../runtime/paths.ts";
import type { WorkerMemory } from "./memory.ts";
import type { QueryAnswerHead, QueryFailure, WorkerMessage, WorkerRequest } from "./protocol.ts";

/** An answer as it arrives: the head (or failure) and, on success, the rows line. */
export type Arrived = { message: QueryAnswerHead | QueryFailure; rows?: string };

/** A running worker. */
export interface WorkerProcess {
  /** The child. */
  child: ChildProcess;
  /** Resolves once DuckDB is loaded; rejects when the worker died first. */
  ready: Promise<void>;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** Whether it has exited. */
  dead(): boolean;
  /** Sends a request. */
  send(request: WorkerRequest): void;
  /** The answer to request `id`. */
  answer(id: number): Promise<Arrived>;
}

const WORKER_URL = new URL(import.meta.url.endsWith(".ts") ? "./worker_main.ts" : "./worker_main.js", import.meta.url);

/** Settings of a worker. */
export interface WorkerSettings {
  /** The store's real path. */
  storeRoot: string;
  /** Memory ceiling and DuckDB limit. */
  memory: WorkerMemory;
  /** DuckDB threads. */
  threads: number;
  /** Spill space. */
  tempLimit: string;
}

/**
 * Starts a worker.
 *
 * @example
 * ```ts ignore
 * const w = await startWorker({ storeRoot, memory: workerMemory(2 ** 31), threads: 2, tempLimit: "2GB" });
 * await w.ready;
 * ```
 */
export async function startWorker(settings: WorkerSettings): Promise<WorkerProcess> {
  const home = await mkdtemp(join(tempRoot(), "svc-sql-"));
  const child = spawnModule(WORKER_URL, {
    args: [
      "--store",
      settings.storeRoot,
      "--temp",
      home,
      "--home",
      homeOrNull() ?? "",
      "--memory",
      `${Math.floor(settings.memory.duckdb / (1024 * 1024))}MiB`,
      "--threads",
      String(settings.threads),
      "--temp-limit",
      settings.tempLimit,
    ],
    cwd: settings.storeRoot,
    dataLimitBytes: settings.memory.ceiling,
    denoPermissions: ["--allow-read", `--allow-write=${home}`, "--allow-ffi"],
  });
  let dead = false;
  const waiting = new Map<number, (arrived: Arrived) => void>();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let readyNow: () => void = () => {};
  let failStart: (e: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    readyNow = resolve;
    failStart = reject;
  });
  ready.catch(() => {});
  let awaitingRows: { head: QueryAnswerHead; deliver: (arrived: Arrived) => void } | null = null;
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (awaitingRows) {
      const { head, deliver } = awaitingRows;
      awaitingRows = null;
      deliver({ message: head, rows: line });
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
    const deliver = waiting.get(message.id);
    if (!deliver) return;
    waiting.delete(message.id);
    if (message.ok) awaitingRows = { head: message, deliver };
    else deliver({ message });
  });
  exited.then(() => {
    dead = true;
    failStart(new Error("the SQL worker exited while starting"));
    const ceiling = Math.round(settings.memory.ceiling / (1024 * 1024));
    const stopped: QueryFailure = {
      id: 0,
      ok: false,
      status: 500,
      error: "the SQL engine stopped while running this query (it may have needed more than its " +
        `${ceiling} MiB of memory); a fresh one has taken its place`,
    };
    for (const deliver of waiting.values()) deliver({ message: stopped });
    waiting.clear();
    rm(home, { recursive: true, force: true }).catch(() => {});
  });
  child.stdin!.on("error", () => {});
  return {
    child,
    ready,
    exited,
    dead: () => dead,
    send: (request) => void child.stdin!.write(JSON.stringify(request) + "\n"),
    answer: (id) => new Promise((resolve) => waiting.set(id, resolve)),
  };
}
