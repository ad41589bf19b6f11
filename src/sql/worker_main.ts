/**
 * A SQL worker process: reads requests from stdin, one JSON object a line,
 * runs each on a sandbox kept per version, and answers on stdout. The node
 * runs two of these and replaces one that dies or stops answering.
 *
 * It runs with the store as its working directory: DuckDB is given only
 * paths relative to it (`<slug>/parts/<sha>.parquet`), so no view, file name
 * or error shows where the node keeps its data (the settings, where DuckDB
 * keeps canonical paths, are refused by name; see `statement.ts`).
 *
 * Arguments: `--store DIR --temp DIR --home DIR --memory 1GB --threads 2 --temp-limit 2GB`
 * (paths are those to keep out of answers; `--temp` is its private spill folder).
 *
 * @module
 */
import { join, relative, sep } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { closeSandbox, openSandbox, type Sandbox, type SandboxLimits } from "./_sandbox.ts";
import { plainMessage, QueryRefused, runQuery } from "./_run_query.ts";
import type { QueryRequest, WorkerMessage, WorkerRequest } from "./protocol.ts";
import { scrubber } from "./scrub.ts";

/** Sandboxes kept open, most recently used last. */
const KEEP = 2;

/** The path DuckDB uses for a part: relative to the store, the worker's working directory. */
function partPath(storeRoot: string, real: string): string {
  const inside = relative(storeRoot, real);
  if (inside.startsWith("..") || inside.startsWith(sep)) throw new Error("a part outside the store was asked for");
  return inside.split(sep).join("/");
}

function send(message: WorkerMessage, rows?: string): void {
  process.stdout.write(JSON.stringify(message) + "\n" + (rows === undefined ? "" : rows + "\n"));
}

function main(): void {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      store: { type: "string" },
      home: { type: "string", default: "" },
      temp: { type: "string" },
      memory: { type: "string", default: "1GB" },
      threads: { type: "string", default: "2" },
      "temp-limit": { type: "string", default: "2GB" },
    },
  });
  if (!values.store || !values.temp) throw new Error("worker needs --store and --temp");
  const limits: SandboxLimits = {
    memoryLimit: values.memory!,
    threads: Number(values.threads),
    tempLimit: values["temp-limit"]!,
  };
  const scrub = scrubber({
    [values.store]: "<store>",
    [values.temp]: "<tmp>",
    [values.home!]: "~",
    [process.cwd()]: "<cwd>",
  });
  const sandboxes = new Map<string, Sandbox>();
  let opened = 0;
  let current: { id: number; sandbox: Sandbox } | null = null;

  async function sandboxFor(job: QueryRequest): Promise<Sandbox> {
    const hit = sandboxes.get(job.key);
    if (hit) {
      sandboxes.delete(job.key);
      sandboxes.set(job.key, hit);
      return hit;
    }
    const parts = job.parts.map((p) => partPath(values.store!, p));
    const sandbox = await openSandbox(parts, join(values.temp!, "spill", String(++opened)), limits);
    sandboxes.set(job.key, sandbox);
    for (const [key, old] of sandboxes) {
      if (sandboxes.size <= KEEP) break;
      sandboxes.delete(key);
      closeSandbox(old);
    }
    return sandbox;
  }

  async function query(job: QueryRequest): Promise<void> {
    const started = performance.now();
    try {
      const sandbox = await sandboxFor(job);
      current = { id: job.id, sandbox };
      const ran = await runQuery(sandbox.connection, job.sql, job.limit, scrub);
      const ms = Math.round(performance.now() - started);
      const { rows, ...head } = ran;
      send({ id: job.id, ok: true, ...head, ms, rss: process.memoryUsage.rss() }, rows);
    } catch (e) {
      const status = e instanceof QueryRefused ? e.status : 400;
      const message = scrub(plainMessage(String((e as Error)?.message ?? e))).slice(0, 2000);
      send({ id: job.id, ok: false, status, error: message, rss: process.memoryUsage.rss() });
    } finally {
      current = null;
    }
  }

  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    const request = JSON.parse(line) as WorkerRequest;
    if (request.type === "interrupt") {
      if (current?.id === request.id) current.sandbox.connection.interrupt();
      return;
    }
    queue = queue.then(() => query(request));
  });
  lines.on("close", () => {
    for (const sandbox of sandboxes.values()) closeSandbox(sandbox);
    process.exit(0);
  });
  send({ type: "ready" });
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
