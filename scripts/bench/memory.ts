/**
 * Benchmark `memory`: where a node's memory goes under mixed load, and
 * whether it comes back (issue 31). Two runs of `svc serve`, each over a fresh
 * copy of the `sql_queries` bench data (1,000,000 records, one part and 200
 * parts): one without a budget, one with `--memory 512MiB` (or
 * `SVC_BENCH_MEMORY_FLAGS`). Each node's whole process tree (node and SQL
 * workers) is sampled every 250 ms, as resident bytes added up and as PSS
 * (pages shared between the processes counted once, as a cgroup charges
 * them), through three phases:
 *
 * - idle: 5 s after start;
 * - mixed load for `SVC_BENCH_MEMORY_SECONDS` (default 30): first pages and
 *   random pages at 16 connections, SQL at 4 clients, two exports at once,
 *   contributions to a small local project at one a second
 *   (`tests/support/mixed_load.ts`, which the container test runs too);
 * - one idle minute after the load.
 *
 * The two runs are made `SVC_BENCH_MEMORY_ROUNDS` times (default 2), the
 * second round in the other order, and judged on all rounds together: runs
 * of the same code gave ratios from 0.72x to 0.95x one round at a time.
 *
 * Targets (issue 31), for the budgeted run: the peak at most 512 MiB (PSS:
 * the pages the node and its workers share, the runtime's binary and
 * DuckDB's library, counted once, as the memory cgroup that enforces a limit
 * charges them; the resident sizes added up are printed beside it), the
 * requests answered within 10% of the run without a budget, back within 1.5x
 * of the idle figure after the minute, and nothing but 200/201 and the
 * documented 429/503.
 *
 * `SVC_BENCH_MEMORY_RUNTIME=node` runs both nodes under Node instead: the npm
 * package built, packed and installed into a temporary folder, its `svc` bin
 * run by `node`; the budgeted node with `NODE_OPTIONS=--max-semi-space-size`
 * as docs/operations.md tells Node's operators (Node cannot be given it
 * after it starts).
 *
 * @module
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { installPackedNpm } from "../../tests/support/npm_package.ts";
import { parseBytes, semiSpace, semiSpaceFlags } from "../../src/launch/mod.ts";
import { NOTES, post } from "../../tests/support/local_project.ts";
import { failures, mixedLoad, type Tally } from "../../tests/support/mixed_load.ts";
import { type Benchmark, printTable, processTreePss, processTreeRss, repeatUntilStopped, verdict } from "./_util.ts";
import { ensureStore, LAYOUTS, QUERIES, RECORDS } from "./sql_queries.ts";

const MIB = 1024 * 1024;
const SAMPLE_MS = 250;
const IDLE_AFTER_MS = 60_000;
const BUDGET = 512 * MIB;

/** Seconds of mixed load. */
function loadSeconds(): number {
  return Number(Deno.env.get("SVC_BENCH_MEMORY_SECONDS") ?? 30) || 30;
}

/** Resident bytes of `pid` alone. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** One sample: the tree, and the node alone (the rest are its workers and their launchers). */
interface Sample {
  at: number;
  tree: number;
  node: number;
  /** The tree's proportional set size: shared pages counted once, as a memory cgroup charges them. */
  pss: number;
}

/** Samples the tree under `pid` every 250 ms until stopped. */
function sampler(pid: number): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  const loop = repeatUntilStopped(async () => {
    const [tree, node, pss] = await Promise.all([processTreeRss(pid), rssOf(pid), processTreePss(pid)]);
    samples.push({ at: performance.now(), tree, node, pss });
  }, SAMPLE_MS);
  return { samples, stop: () => loop.stop() };
}

/** A copy of the bench store (the node makes the local project `notes` to contribute to). */
async function storeCopy(): Promise<string> {
  const { root } = await ensureStore();
  const copy = await mkdtemp(join(tmpdir(), "svc-bench-memory-"));
  for (const name of await readdir(root)) await cp(join(root, name), join(copy, name), { recursive: true });
  await rm(join(copy, LAYOUTS[0].slug, "exports"), { recursive: true, force: true });
  await rm(join(copy, LAYOUTS[1].slug, "exports"), { recursive: true, force: true });
  return copy;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(0);
}

/** One node's run: its samples' three figures, and how its load answered. */
interface NodeRun {
  flags: string[];
  idle: Sample;
  peak: Sample;
  /** The highest proportional size of the tree sampled under load. */
  peakPss: number;
  after: Sample;
  load: Record<string, Tally>;
  log: string;
}

/** How svc is run: under Deno from this checkout, or under Node from the npm package. */
interface Runtime {
  name: "deno" | "node";
  /** The command that runs svc (none: this checkout's `cli.ts` under Deno). */
  svc?: string[];
  /** The environment of a node with `flags`. */
  env(flags: string[]): Record<string, string>;
}

/** The npm package built, packed and installed into `dir`: its `svc` bin under Node. */
async function nodeRuntime(dir: string): Promise<Runtime> {
  console.log("building, packing and installing the npm package for Node ...");
  const { app } = await installPackedNpm(dir);
  return {
    name: "node",
    svc: ["node", join(app, "node_modules", "@svc", "cli", "bin", "svc.js")],
    env: (flags): Record<string, string> => {
      const bytes = flags.includes("--memory") ? parseBytes(flags[flags.indexOf("--memory") + 1] ?? "") : null;
      const young = semiSpaceFlags(bytes === null ? null : semiSpace(bytes));
      return young.length > 0 ? { NODE_OPTIONS: young.join(" ") } : {};
    },
  };
}

/** Serves a copy of the bench store with `flags`, loads it, then leaves it idle for a minute. */
async function runNode(flags: string[], runtime: Runtime): Promise<NodeRun> {
  const store = await storeCopy();
  const node = await startServe(["--store", store, "--quiet", ...flags], runtime.env(flags), { svc: runtime.svc });
  const watch = sampler(node.child.pid);
  try {
    const made = await post(node.url, "/projects", NOTES);
    if (made.status !== 201) throw new Error(`creating notes: ${made.status} ${made.text}`);
    await new Promise((r) => setTimeout(r, 5000));
    const idle = watch.samples.at(-1)!;
    const started = performance.now();
    const load = await mixedLoad({
      url: node.url,
      projects: [LAYOUTS[0].slug, LAYOUTS[1].slug],
      records: RECORDS,
      queries: QUERIES.map((q) => q.sql),
      contributeTo: "notes",
    }, loadSeconds());
    const loadEnd = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_AFTER_MS));
    await watch.stop();
    const during = watch.samples.filter((s) => s.at >= started && s.at <= loadEnd + 1000);
    const peak = during.reduce((a, s) => (s.tree > a.tree ? s : a), during[0]);
    const peakPss = Math.max(...during.map((s) => s.pss));
    return { flags, idle, peak, peakPss, after: watch.samples.at(-1)!, load, log: node.stderr() };
  } finally {
    await watch.stop();
    node.child.kill("SIGTERM");
    await node.status;
    await rm(store, { recursive: true, force: true });
  }
}

function answered(t: Tally): string {
  const other = Object.entries(t.statuses).map(([s, n]) => `${n}x${s}`);
  if (t.broken > 0) other.push(`${t.broken} cut off`);
  return other.length === 0 ? String(t.ok) : `${t.ok} (${other.join(", ")})`;
}

/** Runs the benchmark and prints its tables. */
export async function run(): Promise<void> {
  const flags = Deno.env.get("SVC_BENCH_MEMORY_FLAGS")?.split(" ").filter(Boolean) ?? ["--memory", "512MiB"];
  const npm = Deno.env.get("SVC_BENCH_MEMORY_RUNTIME") === "node"
    ? await mkdtemp(join(tmpdir(), "svc-bench-npm-"))
    : null;
  try {
    const runtime: Runtime = npm ? await nodeRuntime(npm) : { name: "deno", env: () => ({}) };
    console.log(`runtime: ${runtime.name}`);
    await report(flags, runtime);
  } finally {
    if (npm) await rm(npm, { recursive: true, force: true });
  }
}

/** Rounds of the two runs (`SVC_BENCH_MEMORY_ROUNDS`, default 2): the runs alternate which goes first. */
function rounds(): number {
  return Math.max(1, Math.floor(Number(Deno.env.get("SVC_BENCH_MEMORY_ROUNDS") ?? 2) || 2));
}

/** The tallies of `loads` added up per kind of load. */
function addedUp(loads: Record<string, Tally>[]): Record<string, Tally> {
  const out: Record<string, Tally> = {};
  for (const load of loads) {
    for (const [kind, t] of Object.entries(load)) {
      const sum = out[kind] ??= { ok: 0, statuses: {}, broken: 0 };
      sum.ok += t.ok;
      sum.broken += t.broken;
      for (const [status, n] of Object.entries(t.statuses)) sum.statuses[status] = (sum.statuses[status] ?? 0) + n;
    }
  }
  return out;
}

function answeredOk(load: Record<string, Tally>): number {
  return Object.values(load).reduce((n, t) => n + t.ok, 0);
}

/**
 * Runs both nodes `rounds()` times, alternating which goes first (the first
 * run of a round met a colder machine in earlier runs), and judges them on
 * all rounds: the highest peak, the worst return to idle, the requests of
 * every round added up.
 */
async function report(flags: string[], runtime: Runtime): Promise<void> {
  const frees: NodeRun[] = [];
  const helds: NodeRun[] = [];
  for (let round = 0; round < rounds(); round++) {
    if (round % 2 === 0) {
      frees.push(await runNode([], runtime));
      helds.push(await runNode(flags, runtime));
    } else {
      helds.push(await runNode(flags, runtime));
      frees.push(await runNode([], runtime));
    }
  }
  const title = (r: NodeRun) =>
    (r.flags.length > 0 ? r.flags.join(" ") : "no budget") +
    (runtime.env(r.flags).NODE_OPTIONS ? ` (${runtime.env(r.flags).NODE_OPTIONS})` : "");
  printTable(
    [
      "node",
      "round",
      "idle MiB",
      "peak MiB (node + workers)",
      "peak PSS MiB",
      "after an idle minute MiB (node + workers)",
    ],
    [...frees, ...helds].map((r) => [
      title(r),
      String((r.flags.length > 0 ? helds : frees).indexOf(r) + 1),
      mib(r.idle.tree),
      `${mib(r.peak.tree)} (${mib(r.peak.node)} + ${mib(r.peak.tree - r.peak.node)})`,
      mib(r.peakPss),
      `${mib(r.after.tree)} (${mib(r.after.node)} + ${mib(r.after.tree - r.after.node)})`,
    ]),
  );
  const free = addedUp(frees.map((r) => r.load));
  const held = addedUp(helds.map((r) => r.load));
  console.log(`
${loadSeconds()} s of mixed load, ${rounds()} rounds added up, requests answered 200/201:`);
  printTable(
    ["load", "no budget", title(helds[0]), "ratio"],
    Object.keys(free).map((k) => [
      k,
      answered(free[k]),
      answered(held[k]),
      (held[k].ok / Math.max(1, free[k].ok)).toFixed(2),
    ]),
  );
  const perRound = helds.map((h, i) => (answeredOk(h.load) / Math.max(1, answeredOk(frees[i].load))).toFixed(2));
  console.log(`each round: ${perRound.map((r) => `${r}x`).join(", ")}`);
  const speed = answeredOk(held) / Math.max(1, answeredOk(free));
  const peak = Math.max(...helds.map((r) => r.peak.tree));
  const peakPss = Math.max(...helds.map((r) => r.peakPss));
  const back = Math.max(...helds.map((r) => r.after.tree / r.idle.tree));
  console.log("");
  console.log(
    verdict(
      peakPss <= BUDGET,
      `peak of the tree with a budget at most ${
        mib(BUDGET)
      } MiB, shared pages counted once as a cgroup charges them (PSS): ${mib(peakPss)} MiB`,
    ),
  );
  console.log(
    `      its resident sizes added up, which count the runtime's binary and DuckDB's library once in each process: ${
      mib(peak)
    } MiB`,
  );
  console.log(verdict(speed >= 0.9, `requests with a budget within 10% of without (${speed.toFixed(2)}x)`));
  console.log(verdict(back <= 1.5, `back within 1.5x of idle after a minute (${back.toFixed(2)}x)`));
  console.log(
    verdict(
      failures(held) === 0 && failures(free) === 0,
      "no answer cut off, none but 200/201 and the documented 429/503",
    ),
  );
  for (const r of [...frees, ...helds]) {
    const warnings = r.log.split("\n").filter((l) => /warning|error/i.test(l));
    if (warnings.length > 0) console.log(`\n${title(r)}: the node said\n${warnings.slice(-10).join("\n")}`);
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "memory",
  description: "the node's process tree under mixed load (pages, SQL x4, exports x2, contributions), then idle",
  run,
};
