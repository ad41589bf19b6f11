/**
 * One SQL worker process as the pool sees it: a private temp folder for
 * spilling, a hard memory ceiling, and read line by line for its answers.
 *
 * Where Linux allows it the worker runs in a private view of the filesystem
 * (see `runtime/private_view.ts`): the store at `/tmp/store`, its spill
 * folder at `/tmp/spill`. DuckDB keeps canonical absolute paths in its
 * settings; there they name nothing of the host. Elsewhere it runs with the
 * store as its working directory, DuckDB is given paths relative to it, and
 * the settings are kept out of reach by name (`statement.ts`).
 *
 * Under Deno on Linux the worker is started confined by Landlock (see
 * `runtime/landlock.ts`): it may read the store and its runtime's own files,
 * write only its spill folder, and reach no TCP port, whatever DuckDB is
 * asked; its ready line says whether the kernel took the rules.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  cgroupOomKills,
  homeOrNull,
  keptTmpFolders,
  kernelLandlockAbi,
  prepareView,
  privateViewsWork,
  runtimeName,
  spawnModule,
  tempRoot,
  VIEW_ROOT,
} from "../runtime/mod.ts";
import { deathFailure, diedOfMemory, watchStderr } from "./_worker_death.ts";
import type { WorkerMemory } from "./memory.ts";
import type { QueryAnswerHead, QueryFailure, WorkerMessage, WorkerRequest } from "./protocol.ts";

/** An answer as it arrives: the head (or failure) and, on success, the rows line. */
export type Arrived = {
  message: QueryAnswerHead | QueryFailure;
  rows?: string;
  /** The worker died before it read the request: it never ran, and may run on another. */
  unread?: boolean;
};

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
  /** Asks it to stop (its input ends), kills it two seconds later if it has not; resolves once it has exited. */
  stop(): Promise<void>;
  /** The answer to request `id`. */
  answer(id: number): Promise<Arrived>;
  /** Whether it runs in a private view of the filesystem, where no DuckDB setting can name a host path. */
  viewed: boolean;
  /** The Landlock ABI it runs confined under (0: not confined), known once it is ready. */
  landlock(): number;
  /**
   * Whether it may read `part` (a real path under the store): a confined
   * worker reads only the parts folders of the projects there were when it
   * started, so a project made since needs a fresh worker.
   */
  reads(part: string): boolean;
}

/** The prefix of every worker's temp folder; the node's process id follows, so a later start can tell stale ones. */
export const WORKER_FOLDER_PREFIX = "svc-sql-";

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
  /** V8 flags of the worker's runtime (its young generation's size). */
  v8Flags: string[];
  /** Where trouble with a worker is told (the node's log). */
  warn(message: string): void;
  /** Tests only (never a setting): start workers without Landlock. */
  noLandlock?: boolean;
  /** Tests only (never a setting): start workers without a private view. */
  noView?: boolean;
  /** Tests only (never a setting): DuckDB's own walls and the statement checks down (see `worker_main.ts`). */
  unguarded?: boolean;
}

/**
 * Starts a worker.
 */
export async function startWorker(settings: WorkerSettings): Promise<WorkerProcess> {
  const home = await mkdtemp(join(tempRoot(), `${WORKER_FOLDER_PREFIX}${process.pid}-`));
  const { child, viewed, confined, partFolders } = await spawnWorker(settings, home);
  let dead = false;
  const waiting = new Map<number, (arrived: Arrived) => void>();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let landlock = 0;
  let readyNow: () => void = () => {};
  let failStart: (e: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    readyNow = resolve;
    failStart = reject;
  });
  ready.catch(() => {});
  const accepted = new Set<number>();
  readAnswers(child, waiting, accepted, (abi) => {
    // Only a worker started through the launcher can be confined (the variable it reads could be inherited).
    landlock = confined ? abi : 0;
    readyNow();
  }, settings.warn);
  const stderrTail = watchStderr(child, settings.warn);
  const oomKillsAtStart = cgroupOomKills();
  exited.then(async () => {
    dead = true;
    failStart(new Error("the SQL worker exited while starting"));
    if (waiting.size > 0) await Promise.race([stderrTail.ended, new Promise((r) => setTimeout(r, 500))]);
    const ceiling = `${Math.round(settings.memory.ceiling / (1024 * 1024))} MiB`;
    const stopped = deathFailure(
      waiting.size > 0 &&
        diedOfMemory(child.signalCode, stderrTail.text(), (cgroupOomKills() ?? 0) > (oomKillsAtStart ?? Infinity)),
      ceiling,
    );
    for (const [id, deliver] of waiting) deliver({ message: stopped, unread: !accepted.has(id) });
    waiting.clear();
    accepted.clear();
    rm(home, { recursive: true, force: true }).catch(() => {});
  });
  child.stdin!.on("error", () => {});
  return {
    child,
    ready,
    exited,
    dead: () => dead,
    send: (request) => void child.stdin!.write(JSON.stringify(request) + "\n"),
    stop: async () => {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    },
    answer: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    viewed,
    landlock: () => landlock,
    reads: (part) => landlock === 0 || partFolders.has(dirname(part)),
  };
}

/**
 * The parts folders of the store's projects now (`<slug>/parts`, real
 * paths): all a confined worker may read of the store. Nothing else there
 * (manifests, contributions waiting at a gate, recipients, the node's own
 * files) is the business of user SQL.
 */
async function partsFolders(storeRoot: string): Promise<Set<string>> {
  const folders = new Set<string>();
  const entries = await readdir(storeRoot, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const parts = join(storeRoot, entry.name, "parts");
    if (await stat(parts).then((s) => s.isDirectory(), () => false)) folders.add(parts);
  }
  return folders;
}

/** Starts the worker process with `home` as its temp folder, in a private view where one can be made. */
async function spawnWorker(
  settings: WorkerSettings,
  home: string,
): Promise<{ child: ChildProcess; viewed: boolean; confined: boolean; partFolders: Set<string> }> {
  const spill = join(home, "spill");
  await mkdir(spill);
  const code = [fileURLToPath(WORKER_URL)];
  const confined = !settings.noLandlock && process.platform === "linux" && runtimeName() === "deno";
  const partFolders = confined ? await partsFolders(settings.storeRoot) : new Set<string>();
  // Asked again at every start while the view is missing: what stood in its way may have gone.
  const viewed = !settings.noView && await privateViewsWork(code, true);
  if (viewed) await prepareView(home);
  const seen = viewed
    ? { store: `${VIEW_ROOT}/store`, spill: `${VIEW_ROOT}/spill`, home: homeOrNull() ?? "" }
    : { store: settings.storeRoot, spill, home: homeOrNull() ?? "" };
  const child = spawnModule(WORKER_URL, {
    args: [
      "--store",
      seen.store,
      "--temp",
      seen.spill,
      "--home",
      seen.home,
      "--memory",
      `${Math.floor(settings.memory.duckdb / (1024 * 1024))}MiB`,
      "--threads",
      String(settings.threads),
      "--temp-limit",
      settings.tempLimit,
      ...(viewed ? ["--viewed", "--host-store", settings.storeRoot] : []),
      ...(settings.unguarded ? ["--unguarded"] : []),
    ],
    cwd: settings.storeRoot,
    stderr: "pipe",
    dataLimitBytes: settings.memory.ceiling,
    denoPermissions: ["--allow-read", `--allow-write=${seen.spill}`, "--allow-ffi"],
    v8Flags: settings.v8Flags,
    view: viewed
      ? { base: home, mounts: { store: settings.storeRoot, spill }, keep: keptTmpFolders(code)! }
      : undefined,
    confine: confined
      ? {
        read: [...partFolders].map((folder) => join(seen.store, relative(settings.storeRoot, folder))),
        write: [seen.spill],
      }
      : undefined,
  });
  return { child, viewed, confined, partFolders };
}

/**
 * Which walls workers started with `settings` will have, before one has
 * started: Landlock where this process can ask the kernel (a node whose own
 * leave to load libraries is narrowed cannot: then false until a worker
 * says), and the private view where one can be made.
 */
export async function expectedWalls(settings: WorkerSettings): Promise<{ landlock: boolean; view: boolean }> {
  const landlock = !settings.noLandlock && process.platform === "linux" && kernelLandlockAbi() > 0;
  return { landlock, view: !settings.noView && await privateViewsWork([fileURLToPath(WORKER_URL)]) };
}

/** A worker's resident size read from `/proc` (a confined worker cannot read its own), or 0 when unknown. */
export async function residentOf(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Reads the worker's lines: its ready line, then answers, each delivered to
 * the request waiting for it (a successful answer's rows come on the line
 * after its head). A line that is not a message stops the worker.
 */
function readAnswers(
  child: ChildProcess,
  waiting: Map<number, (arrived: Arrived) => void>,
  accepted: Set<number>,
  onReady: (landlock: number) => void,
  warn: (message: string) => void,
): void {
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
      warn(`SQL worker ${child.pid} wrote a line that is not a message; stopping it`);
      child.kill("SIGKILL");
      return;
    }
    if ("type" in message) {
      if (message.type === "accepted") return void accepted.add(message.id);
      return onReady(Number(message.landlock) || 0);
    }
    const deliver = waiting.get(message.id);
    if (!deliver) return;
    waiting.delete(message.id);
    accepted.delete(message.id);
    if (message.ok) awaitingRows = { head: message, deliver };
    else deliver({ message });
  });
}
