/**
 * Benchmark `memory`: where a node's memory goes under mixed load, and
 * whether it comes back (issue 31). `svc serve` in a process of its own over
 * a copy of the `sql_queries` bench data (1,000,000 records, one part and
 * 200 parts), its whole process tree (node and SQL workers) sampled every
 * 250 ms through three phases:
 *
 * - idle: 5 s after start;
 * - mixed load for `SVC_BENCH_MEMORY_SECONDS` (default 30): first pages and
 *   random pages at 16 connections, SQL at 4 clients, two exports at once
 *   (then again, served from the kept file), contributions to a small local
 *   project at one a second;
 * - one idle minute after the load.
 *
 * It prints the idle, peak and after-idle figures of the tree, the node and
 * the workers apart, and the requests each kind of load got through.
 * Targets (issue 31): with `--memory 512MiB` the peak at most 512 MiB, and
 * after the idle minute back within 1.5x of the idle figure. Until the node
 * takes `--memory`, the run without a budget is the record of where memory
 * goes.
 *
 * @module
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { NOTES, post } from "../../tests/support/local_project.ts";
import { type Benchmark, printTable, processTreeRss, verdict } from "./_util.ts";
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
}

/** Samples the tree under `pid` every 250 ms until stopped. */
function sampler(pid: number): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const [tree, node] = await Promise.all([processTreeRss(pid), rssOf(pid)]);
      samples.push({ at: performance.now(), tree, node });
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Runs `fn` in `n` loops until `until`; resolves with how many calls answered. */
async function loops(n: number, until: number, fn: (i: number) => Promise<void>): Promise<number> {
  let done = 0;
  await Promise.all(Array.from({ length: n }, async (_, k) => {
    for (let i = k; performance.now() < until; i += n) {
      await fn(i);
      done++;
    }
  }));
  return done;
}

async function drained(res: Response, what: string): Promise<void> {
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** The mixed load against `url` for `seconds`; the requests each kind got through. */
async function mixedLoad(url: string, seconds: number): Promise<Record<string, number>> {
  const until = performance.now() + seconds * 1000;
  const [one, many] = LAYOUTS.map((l) => l.slug);
  let next = 50_000_000;
  const counts = await Promise.all([
    loops(
      4,
      until,
      (i) => fetch(`${url}/projects/${i % 2 ? one : many}/data?limit=100`).then((r) => drained(r, "page")),
    ),
    loops(12, until, (i) => {
      const offset = Math.floor(((i * 7919) % 1000) / 1000 * (RECORDS - 100));
      return fetch(`${url}/projects/${i % 2 ? many : one}/data?limit=100&offset=${offset}`)
        .then((r) => drained(r, "random page"));
    }),
    loops(4, until, (i) =>
      fetch(`${url}/projects/${i % 2 ? one : many}/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: QUERIES[i % QUERIES.length].sql }),
      }).then((r) => drained(r, "sql"))),
    loops(
      2,
      until,
      (i) => fetch(`${url}/projects/${i % 2 ? one : many}/export?version=1`).then((r) => drained(r, "export")),
    ),
    loops(1, until, async () => {
      const records = Array.from({ length: 100 }, () => ({ id: next, text: `note ${next++}` }));
      const res = await fetch(`${url}/projects/notes/contribute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ records }),
      });
      await drained(res, "contribute");
      await new Promise((r) => setTimeout(r, 1000));
    }),
  ]);
  return { pages: counts[0], "random pages": counts[1], sql: counts[2], exports: counts[3], contributions: counts[4] };
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

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const store = await storeCopy();
  const budget = Deno.env.get("SVC_BENCH_MEMORY_FLAGS")?.split(" ").filter(Boolean) ?? [];
  const node = await startServe(["--store", store, "--quiet", ...budget]);
  const pid = node.child.pid;
  const watch = sampler(pid);
  try {
    const made = await post(node.url, "/projects", NOTES);
    if (made.status !== 201) throw new Error(`creating notes: ${made.status} ${made.text}`);
    await new Promise((r) => setTimeout(r, 5000));
    const idle = watch.samples.at(-1)!;
    const started = performance.now();
    const counts = await mixedLoad(node.url, loadSeconds());
    const loadEnd = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_AFTER_MS));
    await watch.stop();
    const during = watch.samples.filter((s) => s.at >= started && s.at <= loadEnd);
    const peak = during.reduce((a, s) => (s.tree > a.tree ? s : a), during[0]);
    const after = watch.samples.at(-1)!;
    console.log(`node flags: ${budget.length > 0 ? budget.join(" ") : "(none: no budget)"}`);
    printTable(["phase", "tree MiB", "node MiB", "workers MiB"], [
      ["idle, 5 s after start", mib(idle.tree), mib(idle.node), mib(idle.tree - idle.node)],
      ["peak under mixed load", mib(peak.tree), mib(peak.node), mib(peak.tree - peak.node)],
      ["after an idle minute", mib(after.tree), mib(after.node), mib(after.tree - after.node)],
    ]);
    console.log(
      `\n${loadSeconds()} s of load: ` + Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", "),
    );
    console.log(verdict(peak.tree <= BUDGET, `peak of the tree at most ${mib(BUDGET)} MiB`));
    console.log(verdict(after.tree <= idle.tree * 1.5, "back within 1.5x of idle after a minute"));
  } finally {
    await watch.stop();
    node.child.kill("SIGTERM");
    await node.status;
    await rm(store, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "memory",
  description: "the node's process tree under mixed load (pages, SQL x4, exports x2, contributions), then idle",
  run,
};
