/**
 * Helpers shared by the benchmarks: statistics, bounded timing loops, a
 * closed-loop throughput run, a table printer, a free port and the bench data
 * directory.
 *
 * Every loop here is bounded twice, by a count and by a time budget, so a slow
 * machine makes a benchmark less precise rather than longer.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { open, readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One benchmark module as `mod.ts` runs it. */
export interface Benchmark {
  /** Short name, used on the command line (`deno task bench data_pages`). */
  name: string;
  /** One line saying what is measured and against which reference. */
  description: string;
  /** Runs the benchmark and prints its results. */
  run(): Promise<void>;
}

/**
 * The median of `values` (NaN when empty).
 *
 * @example
 * ```ts
 * import { median } from "./_util.ts";
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The `p`th percentile (0..100) of `values`, linearly interpolated between
 * the nearest ranks (NaN when empty).
 *
 * @example
 * ```ts
 * import { percentile } from "./_util.ts";
 * percentile([1, 2, 3, 4], 50); // 2.5
 * ```
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** Bounds of a timing loop: it stops at `maxRuns` runs or after `maxMs`, whichever comes first. */
export interface LoopBounds {
  /** Runs at most this many times. */
  maxRuns: number;
  /** Stops starting new runs once this many milliseconds have passed. */
  maxMs: number;
  /** Runs at least this many times even past `maxMs` (default 1). */
  minRuns?: number;
}

/**
 * Calls `fn` one run after another, within `bounds`, and returns the duration
 * of each run in milliseconds.
 *
 * @example
 * ```ts ignore
 * const samples = await timeLoop(() => fetch(url).then((r) => r.text()), { maxRuns: 50, maxMs: 3000 });
 * console.log(median(samples));
 * ```
 */
export async function timeLoop(fn: () => Promise<unknown>, bounds: LoopBounds): Promise<number[]> {
  const samples: number[] = [];
  const minRuns = Math.min(bounds.minRuns ?? 1, bounds.maxRuns);
  const started = performance.now();
  while (samples.length < bounds.maxRuns) {
    if (samples.length >= minRuns && performance.now() - started >= bounds.maxMs) break;
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/**
 * Times several functions in rotation (one call of each per round, in
 * order) within `bounds` on the number of rounds and total time, and returns
 * the durations of each function's calls in milliseconds. Interleaving makes
 * every function see the same machine, so a burst of noise hits all of them
 * rather than one.
 *
 * @example
 * ```ts ignore
 * const [a, b] = await interleaved([pageA, pageB], { maxRuns: 100, maxMs: 3000 });
 * console.log(median(a) / median(b));
 * ```
 */
export async function interleaved(fns: readonly (() => Promise<unknown>)[], bounds: LoopBounds): Promise<number[][]> {
  const samples = fns.map(() => [] as number[]);
  const minRuns = Math.min(bounds.minRuns ?? 1, bounds.maxRuns);
  const started = performance.now();
  for (let round = 0; round < bounds.maxRuns; round++) {
    if (round >= minRuns && performance.now() - started >= bounds.maxMs) break;
    for (let i = 0; i < fns.length; i++) {
      const t0 = performance.now();
      await fns[i]();
      samples[i].push(performance.now() - t0);
    }
  }
  return samples;
}

/** What a closed-loop run did. */
export interface Throughput {
  /** Calls completed. */
  calls: number;
  /** Wall time of the run, in seconds. */
  seconds: number;
  /** Calls per second. */
  perSecond: number;
  /** Duration of each call, in milliseconds. */
  samples: number[];
}

/**
 * A closed-loop run: `concurrency` workers each call `fn` again as soon as
 * their previous call finishes, until `bounds.maxMs` has passed or
 * `bounds.maxRuns` calls have been started in all.
 *
 * @example
 * ```ts ignore
 * const t = await closedLoop(() => fetch(url).then((r) => r.text()), 4, { maxRuns: 5000, maxMs: 2000 });
 * console.log(`${t.perSecond.toFixed(0)} req/s`);
 * ```
 */
export async function closedLoop(
  fn: () => Promise<unknown>,
  concurrency: number,
  bounds: LoopBounds,
): Promise<Throughput> {
  const samples: number[] = [];
  let started = 0;
  const t0 = performance.now();
  async function worker() {
    while (started < bounds.maxRuns && performance.now() - t0 < bounds.maxMs) {
      started++;
      const s = performance.now();
      await fn();
      samples.push(performance.now() - s);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return { calls: samples.length, seconds, perSecond: samples.length / seconds, samples };
}

/**
 * Prints `rows` under `headers` as an aligned plain-text table (numbers
 * right-aligned, text left-aligned).
 *
 * @example
 * ```ts
 * import { printTable } from "./_util.ts";
 * printTable(["case", "ms"], [["first", "1.20"], ["last", "3.40"]]);
 * ```
 */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): void {
  console.log(formatTable(headers, rows));
}

/**
 * The text {@linkcode printTable} prints.
 *
 * @example
 * ```ts
 * import { formatTable } from "./_util.ts";
 * formatTable(["a"], [["1"]]);
 * ```
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+x?$|^-$/.test(r[i] ?? "")));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])).join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(headers), rule, ...rows.map(line)].join("\n");
}

/**
 * A TCP port that was free on `host` a moment ago (the OS picks it).
 *
 * @example
 * ```ts ignore
 * const port = await freePort();
 * ```
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `ms` milliseconds as text with a precision that suits its size.
 *
 * @example
 * ```ts
 * import { fmtMs } from "./_util.ts";
 * fmtMs(0.4567); // "0.457"
 * ```
 */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (ms < 1) return ms.toFixed(3);
  if (ms < 100) return ms.toFixed(2);
  return ms.toFixed(0);
}

/**
 * A ratio as text, e.g. `1.23x`.
 *
 * @example
 * ```ts
 * import { fmtRatio } from "./_util.ts";
 * fmtRatio(3, 2); // "1.50x"
 * ```
 */
export function fmtRatio(a: number, b: number): string {
  const r = a / b;
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : "-";
}

/**
 * The repository's `bench-data/` directory (git-ignored), or a folder in it.
 *
 * @example
 * ```ts ignore
 * const root = benchDataDir("data_pages");
 * ```
 */
export function benchDataDir(...parts: string[]): string {
  return join(fileURLToPath(new URL("../../bench-data/", import.meta.url)), ...parts);
}

/**
 * `PASS` or `MISS` for a target, with what was measured.
 *
 * @example
 * ```ts
 * import { verdict } from "./_util.ts";
 * verdict(1.2 <= 1.5, "deepest/first 1.20x <= 1.5x"); // "PASS  deepest/first 1.20x <= 1.5x"
 * ```
 */
export function verdict(ok: boolean, text: string): string {
  return `${ok ? "PASS" : "MISS"}  ${text}`;
}

/**
 * Runs a reference tool (`curl`, `gzip`, `sync`, ...) and resolves with its
 * time in ms; its stdout goes to the file `stdout` when given, else nowhere.
 * Its stderr is kept and shown only when it fails: curl 7.88 draws its
 * progress meter in `--parallel` mode even when told to be silent.
 *
 * @example
 * ```ts ignore
 * const ms = await runTool("gzip", ["-6", "-c", "records.jsonl"], "records.jsonl.gz");
 * ```
 */
export async function runTool(command: string, args: readonly string[], stdout?: string): Promise<number> {
  const out = stdout ? await open(stdout, "w") : null;
  try {
    const t0 = performance.now();
    const child = spawn(command, [...args], { stdio: ["ignore", out ? out.fd : "ignore", "pipe"] });
    let errors = "";
    child.stderr!.on("data", (chunk: Uint8Array) => errors = (errors + new TextDecoder().decode(chunk)).slice(-4000));
    return await new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => {
        if (code === 0) return resolve(performance.now() - t0);
        reject(new Error(`${command} exited ${code}: ${errors.replace(/\r/g, "\n").split("\n").slice(-5).join("\n")}`));
      });
    });
  } finally {
    await out?.close();
  }
}

/**
 * Resident bytes of process `pid` and every process under it: now (`VmRSS`),
 * or the most each has held (`VmHWM`, its peak). Linux only (0 elsewhere).
 *
 * @example
 * ```ts ignore
 * const peak = await processTreeRss(Deno.pid, "VmHWM");
 * ```
 */
export async function processTreeRss(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  let rss = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const child of children.trim().split(/\s+/).filter(Boolean)) rss += await processTreeRss(Number(child), field);
  }
  return rss;
}

/**
 * Proportional bytes of process `pid` and every process under it (`Pss` of
 * `smaps_rollup`): what they hold together, each page shared between them
 * (the runtime's binary, DuckDB's library, mapped by the node and each SQL
 * worker) counted once, as a memory cgroup charges it. Linux only (0
 * elsewhere).
 *
 * @example
 * ```ts ignore
 * const together = await processTreePss(Deno.pid);
 * ```
 */
export async function processTreePss(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => "");
  let pss = Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const child of children.trim().split(/\s+/).filter(Boolean)) pss += await processTreePss(Number(child));
  }
  return pss;
}

/**
 * Runs `step`, then again `everyMs` after each run ends, until stopped:
 * `stop` resolves once the run under way and the wait after it have ended.
 *
 * @example
 * ```ts
 * import { repeatUntilStopped } from "./_util.ts";
 * let runs = 0;
 * const loop = repeatUntilStopped(() => runs++, 10);
 * await loop.stop();
 * runs; // 1
 * ```
 */
export function repeatUntilStopped(step: () => unknown, everyMs: number): { stop(): Promise<void> } {
  let running = true;
  const done = (async () => {
    while (running) {
      await step();
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop() {
      running = false;
      return done;
    },
  };
}
