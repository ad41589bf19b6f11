/**
 * A SQL worker process: reads requests from stdin, one JSON object a line,
 * runs each on a sandbox kept per version, and answers on stdout. The node
 * runs two of these and replaces one that dies or stops answering.
 *
 * DuckDB is given part paths relative to the working directory, so no view,
 * file name or error shows where the node keeps its data. In a private view
 * of the filesystem (`--viewed`; see `_worker_process.ts`) the store is at
 * `/tmp/store` and even the settings, where DuckDB keeps canonical paths,
 * name nothing of the host; elsewhere the working directory is the store,
 * its paths are scrubbed from answers and the settings are refused by name
 * (`statement.ts`).
 *
 * Arguments: `--store DIR --temp DIR --home DIR --memory 1GB --threads 2 --temp-limit 2GB [--viewed
 * --host-store DIR] [--unguarded]` (`--temp` is its private spill folder; the store, temp folder, home and host
 * store are kept out of answers, all but the view's own paths; `--unguarded`, which only tests pass, takes
 * DuckDB's own walls and the statement checks down, to show what the operating system's walls hold alone).
 *
 * Where Landlock is up the worker was started through `runtime/landlock.ts`, which confined it before the
 * runtime started: it reads the store and writes only its temp folder. It says so in its ready line.
 *
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { closeSandbox, openSandbox, type Sandbox, type SandboxLimits } from "./_sandbox.ts";
import { plainMessage, QueryRefused, runQuery } from "./_run_query.ts";
import type { QueryRequest, SettingsRequest, WorkerMessage, WorkerRequest } from "./protocol.ts";
import { type Scrubber, scrubber } from "./scrub.ts";
import { confinedAbi } from "../runtime/mod.ts";

/** Sandboxes kept open, most recently used last. */
const KEEP = 2;

/** The path DuckDB uses for a part given relative to the store: relative to the working directory. */
function partPath(storeRoot: string, inStore: string): string {
  if (isAbsolute(inStore) || inStore.split(/[\\/]/).some((s) => s === ".." || s === "")) {
    throw new Error("a part outside the store was asked for");
  }
  return relative(process.cwd(), join(storeRoot, inStore)).split(sep).join("/");
}

/** The worker's resident size; undefined where it cannot read it (confined by Landlock, `/proc` is out of reach). */
function resident(): number | undefined {
  return process.memoryUsage.rss() || undefined;
}

function send(message: WorkerMessage, rows?: string): void {
  process.stdout.write(JSON.stringify(message) + "\n" + (rows === undefined ? "" : rows + "\n"));
}

/** What a worker keeps: its paths and limits, the sandboxes it holds open, and the query under way. */
interface WorkerState {
  store: string;
  temp: string;
  limits: SandboxLimits;
  scrub: Scrubber;
  sandboxes: Map<string, Sandbox>;
  opened: number;
  current: { id: number; sandbox: Sandbox } | null;
  /** Tests only: DuckDB's own walls and the statement checks down. */
  unguarded: boolean;
}

/** The worker's state from its arguments (see the module's comment). */
function workerState(args: string[]): WorkerState {
  const { values } = parseArgs({
    args,
    options: {
      store: { type: "string" },
      home: { type: "string", default: "" },
      temp: { type: "string" },
      memory: { type: "string", default: "1GB" },
      threads: { type: "string", default: "2" },
      "temp-limit": { type: "string", default: "2GB" },
      viewed: { type: "boolean", default: false },
      "host-store": { type: "string", default: "" },
      unguarded: { type: "boolean", default: false },
    },
  });
  if (!values.store || !values.temp) throw new Error("worker needs --store and --temp");
  // In a private view the worker's own paths are neutral ("/tmp" may well be in the data); a client may still
  // have typed the host's paths into a query, which DuckDB's errors repeat.
  const scrub = scrubber(
    values.viewed ? { [values["host-store"]!]: "<store>", [values.home!]: "~" } : {
      [values.store]: "<store>",
      [values.temp]: "<tmp>",
      [values.home!]: "~",
      [process.cwd()]: "<cwd>",
    },
  );
  return {
    store: values.store,
    temp: values.temp,
    limits: {
      memoryLimit: values.memory!,
      threads: Number(values.threads),
      tempLimit: values["temp-limit"]!,
      unguarded: values.unguarded,
    },
    scrub,
    sandboxes: new Map(),
    opened: 0,
    current: null,
    unguarded: values.unguarded!,
  };
}

/** The sandbox of `job`'s version: kept open for the next queries, the least recently used closed past {@linkcode KEEP}. */
async function sandboxFor(w: WorkerState, job: QueryRequest | SettingsRequest): Promise<Sandbox> {
  const hit = w.sandboxes.get(job.key);
  if (hit) {
    w.sandboxes.delete(job.key);
    w.sandboxes.set(job.key, hit);
    return hit;
  }
  const parts = job.parts.map((p) => partPath(w.store, p));
  const sandbox = await openSandbox(parts, join(w.temp, "spill", String(++w.opened)), w.limits);
  w.sandboxes.set(job.key, sandbox);
  for (const [key, old] of w.sandboxes) {
    if (w.sandboxes.size <= KEEP) break;
    w.sandboxes.delete(key);
    closeSandbox(old);
  }
  return sandbox;
}

async function query(w: WorkerState, job: QueryRequest): Promise<void> {
  const started = performance.now();
  try {
    const sandbox = await sandboxFor(w, job);
    w.current = { id: job.id, sandbox };
    const ran = await runQuery(sandbox.connection, job.sql, job.limit, w.scrub, w.unguarded);
    const ms = Math.round(performance.now() - started);
    const { rows, ...head } = ran;
    send({ id: job.id, ok: true, ...head, ms, rss: resident() }, rows);
  } catch (e) {
    const status = e instanceof QueryRefused ? e.status : 400;
    const message = w.scrub(plainMessage(String((e as Error)?.message ?? e))).slice(0, 2000);
    send({ id: job.id, ok: false, status, error: message, rss: resident() });
  } finally {
    w.current = null;
  }
}

async function settings(w: WorkerState, job: SettingsRequest): Promise<void> {
  try {
    const sandbox = await sandboxFor(w, job);
    const reader = await sandbox.connection.runAndReadAll(
      "SELECT name, value FROM duckdb_settings() WHERE regexp_matches(value, '(^|[\\[ ,])/') ORDER BY name",
    );
    const rows = reader.getRows().map((r) => r.map(String));
    const head = { columns: ["name", "value"], types: ["VARCHAR", "VARCHAR"], count: rows.length };
    send({ id: job.id, ok: true, ...head, truncated: false, ms: 0 }, JSON.stringify(rows));
  } catch (e) {
    send({ id: job.id, ok: false, status: 500, error: String((e as Error)?.message ?? e) });
  }
}

function main(): void {
  const w = workerState(process.argv.slice(2));
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    const request = JSON.parse(line) as WorkerRequest;
    if (request.type === "interrupt") {
      if (w.current?.id === request.id) w.current.sandbox.connection.interrupt();
      return;
    }
    send({ type: "accepted", id: request.id });
    queue = queue.then(() => request.type === "settings" ? settings(w, request) : query(w, request));
  });
  lines.on("close", () => {
    for (const sandbox of w.sandboxes.values()) closeSandbox(sandbox);
    process.exit(0);
  });
  send({ type: "ready", landlock: confinedAbi() });
}

// Under Node (the npm build) `import.meta.main` does not exist; the file name tells instead.
if ((import.meta as ImportMeta & { main?: boolean }).main || process.argv[1]?.endsWith("worker_main.js")) {
  console.log = console.error;
  try {
    main();
  } catch (e) {
    console.error("svc sql worker:", e);
    process.exit(1);
  }
}
