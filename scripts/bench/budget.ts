/**
 * Benchmark `budget`: random data pages at 16 connections (`wrk`, a random
 * offset each request, 200 records a page) from two `svc serve` processes
 * over the same 1,000,000 records: one with the default memory budget (a
 * quarter of the machine) and one with `--memory 512MiB`, in rounds that
 * alternate which goes first. Each node is warmed with its twin (below),
 * in the slices of a round, just before its first round; between its
 * rounds it is idle while the other is loaded, and 17 s more, longer than
 * the idle trim's first wait (`TRIM_AFTER_MS`), so every
 * round after the first starts from a trimmed page cache, and the first
 * from none. (The rounds' alternating order has a node idle about 17 and
 * 60 s by turns: the long spell, idle well past its trim, sets the trim's
 * wait back to 15 s each time. The table says which rounds followed a
 * trim.)
 *
 * Targets (issue 47):
 * - the budgeted node at >= 0.8x of the default's requests per second (the
 *   median of the rounds' paired ratios), without giving back its memory
 *   (its peak PSS printed beside the default's);
 * - the idle trim costs no steady throughput: each node's rounds hold the
 *   first round's figure within 10% (every later round at >= 0.9x of it),
 *   each round's figure taken against the node's twin: a node of the same
 *   budget, started and warmed alike, asked for a page every two seconds
 *   while it is not loaded (so it never idles long enough to trim), whose
 *   load is cut into the same slices, each right after the node's. The
 *   only difference between the two is the idle spell, and a busy spell
 *   of the machine falls on both. A bare `Deno.serve` taken as that
 *   reference before moved unlike the node (from 30,139 to 44,005 requests
 *   a second in one run, where the node rose 1.16x), and the machine alone
 *   moves more than the 10% the target allows; the raw figures are printed
 *   too.
 *
 * `SVC_BENCH_BUDGET_ROUNDS` (5) and `SVC_BENCH_BUDGET_SECONDS` (10) change the
 * rounds and their length.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { TRIM_AFTER_MAX_MS, TRIM_AFTER_MS } from "../../src/service/mod.ts";
import { type Benchmark, median, printTable, processTreePss, repeatUntilStopped, verdict } from "./_util.ts";
import { benchDataDir } from "./_util.ts";
import { ensureStore, RECORDS } from "./sql_queries.ts";

const SLUG = "sql-one-part";
const LIMIT = 200;
const BUDGET_TARGET = 0.8;
const HOLD_TARGET = 0.9;
/**
 * Slices a node's round is cut into, each followed by a slice of its twin's
 * load: ten of 1 s. Five of 2 s left the first round's ratio, which every
 * later round is held against, one noisy draw: the default node, which pays
 * nothing at a trim, fell to 0.85x of it in one run of seven.
 */
const SLICES = 10;
/** How often a twin is asked for a page while it is not loaded: well inside the trim's wait. */
const TRICKLE_MS = 2_000;

function setting(name: string, fallback: number): number {
  return Number(Deno.env.get(name) ?? fallback) || fallback;
}

/** A wrk script asking for a page at a random offset each request. */
function randomPages(slug: string): string {
  return `math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/projects/${slug}/data?limit=${LIMIT}&offset=" .. math.random(0, ${RECORDS - LIMIT}))
end
`;
}

/** What a wrk run reached: answers per second (200s), the 99th percentile in ms, and answers other than 200. */
function wrkPages(
  url: string,
  script: string,
  seconds: number,
): Promise<{ rate: number; p99: number; refused: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", ["-t2", "-c16", `-d${seconds}s`, "--latency", "-s", script, url], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (c: Uint8Array) => (out += new TextDecoder().decode(c)));
    child.once("error", (e) => reject(new Error(`wrk could not run (apt-get install wrk): ${e.message}`)));
    child.once("close", (code) => {
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
      const refused = /Non-2xx or 3xx responses: (\d+)/.exec(out);
      const requests = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(out);
      if (code !== 0 || !rate || !p99 || !requests) return reject(new Error(`wrk exited ${code}: ${out}`));
      const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as "us" | "ms" | "s"];
      const failed = Number(refused?.[1] ?? 0);
      const answered = Number(rate[1]) * (1 - failed / Math.max(1, Number(requests[1])));
      resolve({ rate: answered, p99: Number(p99[1]) * unit, refused: failed });
    });
  });
}

/**
 * A node's round of `seconds` in {@linkcode SLICES} slices, each followed by
 * a slice as long of its twin's load: the node's answers a second, its worst
 * slice's p99, its answers other than 200, and the twin's answers a second,
 * both over the same spells of the machine.
 */
async function pairedRound(
  url: string,
  twinUrl: string,
  script: string,
  seconds: number,
): Promise<{ rate: number; p99: number; refused: number; twin: number; slices: { node: number; twin: number }[] }> {
  const slice = Math.max(1, Math.round(seconds / SLICES));
  const node: Awaited<ReturnType<typeof wrkPages>>[] = [];
  const twin: number[] = [];
  for (let k = 0; k < SLICES; k++) {
    node.push(await wrkPages(url, script, slice));
    twin.push((await wrkPages(twinUrl, script, slice)).rate);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    rate: mean(node.map((n) => n.rate)),
    p99: Math.max(...node.map((n) => n.p99)),
    refused: node.reduce((sum, n) => sum + n.refused, 0),
    twin: mean(twin),
    slices: node.map((n, k) => ({ node: n.rate, twin: twin[k] })),
  };
}

/** Asks `url` for a page every {@linkcode TRICKLE_MS}, so that the node is never idle long enough to trim, until stopped. */
function trickle(url: string): { stop(): Promise<void> } {
  return repeatUntilStopped(
    () =>
      fetch(`${url}/projects/${SLUG}/data?limit=${LIMIT}&offset=${Math.floor(Math.random() * 1000)}`)
        .then((r) => r.body?.cancel()).catch(() => {}),
    TRICKLE_MS,
  );
}

/** CPU time (user and system) of `pid` and every process under it, in ms (Linux; 0 elsewhere). */
async function treeCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  let ms = (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
  for (const task of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const child of children.trim().split(/\s+/).filter(Boolean)) ms += await treeCpuMs(Number(child));
  }
  return ms;
}

/** What the node's page cache has served: pages from memory and from the parts. */
async function cacheCounts(url: string): Promise<{ hits: number; misses: number; trims: number }> {
  const health = await (await fetch(`${url}/healthz`)).json();
  return { ...health.pageCache, trims: health.memory.idleTrim.trims };
}

/** Samples the PSS of `pid`'s tree every 250 ms until stopped; resolves with the most seen. */
function peakPss(pid: number): { stop(): Promise<number> } {
  let most = 0;
  const loop = repeatUntilStopped(async () => (most = Math.max(most, await processTreePss(pid))), 250);
  return { stop: () => loop.stop().then(() => most) };
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const rounds = setting("SVC_BENCH_BUDGET_ROUNDS", 5);
  const seconds = setting("SVC_BENCH_BUDGET_SECONDS", 10);
  const idle = Math.ceil((TRIM_AFTER_MS + 2_000) / 1000);
  const { root } = await ensureStore();
  const script = join(benchDataDir(), "budget-random-pages.lua");
  await writeFile(script, randomPages(SLUG));
  const budgets = [
    { name: "default budget", args: [] as string[] },
    { name: "--memory 512MiB", args: ["--memory", "512MiB"] },
  ];
  const start = (args: string[]) => startServe(["--store", root, "--quiet", "--read-only", ...args]);
  const nodes = [];
  for (const b of budgets) nodes.push({ name: b.name, serve: await start(b.args), twin: await start(b.args) });
  const rates = nodes.map(() => [] as number[]);
  const p99s = nodes.map(() => [] as number[]);
  const cpuPerPage = nodes.map(() => [] as number[]);
  const misses = nodes.map(() => [] as number[]);
  /** Whether the node trimmed in the idle spell before each round (the trim's wait grows while load keeps coming back). */
  const trimmed = nodes.map(() => [] as boolean[]);
  const refused = nodes.map(() => 0);
  const twins = nodes.map(() => [] as number[]);
  /** Each round's slices, the node's answers a second and its twin's. */
  const slices = nodes.map(() => [] as { node: number; twin: number }[][]);
  const peaks = nodes.map((n) => peakPss(n.serve.child.pid));
  const trickles: { stop(): Promise<void> }[] = [];
  const trimsBefore = nodes.map(() => 0);
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const { url, child } = nodes[i].serve;
        // A node and its twin read every block just before the node's first round, in the slices of a round, so
        // their caches hold what they will hold and that round, the one later rounds are held against, finds both as
        // warm (warmed one after the other, the twin met the first round ten seconds cooler than the node).
        if (round === 0) {
          trickles.push(trickle(nodes[i].twin.url));
          await pairedRound(url, nodes[i].twin.url, script, seconds);
        }
        const [cpu, counts] = [await treeCpuMs(child.pid), await cacheCounts(url)];
        trimmed[i].push(round > 0 && counts.trims > trimsBefore[i]);
        const got = await pairedRound(url, nodes[i].twin.url, script, seconds);
        const after = await cacheCounts(url);
        trimsBefore[i] = after.trims;
        const pages = after.hits + after.misses - counts.hits - counts.misses;
        rates[i].push(got.rate);
        twins[i].push(got.twin);
        slices[i].push(got.slices);
        p99s[i].push(got.p99);
        refused[i] += got.refused;
        cpuPerPage[i].push(((await treeCpuMs(child.pid)) - cpu) / Math.max(1, pages));
        misses[i].push(after.misses - counts.misses);
      }
      // The nodes idle past the trim's wait before the next round; their twins never do.
      if (round < rounds - 1) await new Promise((r) => setTimeout(r, idle * 1000));
    }
  } finally {
    for (const t of trickles) await t.stop();
    const all = nodes.flatMap((n) => [n.serve, n.twin]);
    for (const serve of all) serve.child.kill("SIGTERM");
    for (const serve of all) await serve.status;
  }
  const peak = await Promise.all(peaks.map((p) => p.stop()));
  const mib = (n: number) => `${Math.round(n / 1024 ** 2)} MiB`;
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(
    `\nRandom pages of ${LIMIT} records, 16 connections, ${seconds} s a round, ${rounds} rounds; ` +
      `${idle} s idle between a node's rounds (the trim waits ${TRIM_AFTER_MS / 1000} s, up to ` +
      `${TRIM_AFTER_MAX_MS / 1000} s while load keeps coming back within a wait of a trim)\n`,
  );
  printTable(
    [
      "node",
      "200s/s by round",
      "median",
      "twin by round",
      "p99 ms by round (worst slice)",
      "CPU ms a page by round",
      "misses",
      "trimmed before",
      "not 200",
      "peak PSS",
    ],
    nodes.map((n, i) => [
      n.name,
      rates[i].map(fmt).join(" "),
      fmt(median(rates[i])),
      twins[i].map(fmt).join(" "),
      p99s[i].map((x) => x.toFixed(1)).join(" "),
      cpuPerPage[i].map((x) => x.toFixed(3)).join(" "),
      misses[i].join(" "),
      trimmed[i].map((t, k) => k === 0 ? "-" : t ? "yes" : "no").join(" "),
      String(refused[i]),
      mib(peak[i]),
    ]),
  );
  const paired = median(rates[1].map((r, k) => r / rates[0][k]));
  console.log("");
  console.log(
    verdict(
      paired >= BUDGET_TARGET,
      `--memory 512MiB at ${paired.toFixed(2)}x of the default budget's req/s (>= ${BUDGET_TARGET}x; ` +
        `peak PSS ${mib(peak[1])} against ${mib(peak[0])})`,
    ),
  );
  for (const [i, n] of nodes.entries()) {
    const raw = Math.min(...rates[i].slice(1)) / rates[i][0];
    const against = rates[i].map((r, k) => r / twins[i][k]);
    const held = against.map((x) => x / against[0]);
    const worst = Math.min(...held.slice(1));
    console.log(
      verdict(
        worst >= HOLD_TARGET,
        `${n.name}: every round after an idle spell at >= ${HOLD_TARGET}x of the first, each against the twin ` +
          `beside it (worst ${worst.toFixed(2)}x, by round ${held.map((x) => x.toFixed(2)).join(" ")}; raw ` +
          `${raw.toFixed(2)}x, the twin's own worst ${(Math.min(...twins[i].slice(1)) / twins[i][0]).toFixed(2)}x)`,
      ),
    );
    console.log(`  ${n.name}, where in the round: ${warmUp(slices[i])}`);
  }
}

/** Slices at the start of a round that the trim's cost is looked for in (docs/benchmarks.md, "budget"). */
const FIRST_SLICES = 2;

/**
 * Each round's first {@linkcode FIRST_SLICES} slices and the rest, each
 * against the twin's same slices, held against the first round's: where in
 * a round after an idle spell its cost falls.
 */
function warmUp(rounds: { node: number; twin: number }[][]): string {
  const ratio = (xs: { node: number; twin: number }[]) =>
    xs.reduce((n, x) => n + x.node, 0) / Math.max(1, xs.reduce((n, x) => n + x.twin, 0));
  const first = ratio(rounds[0]);
  const part = (pick: (xs: typeof rounds[0]) => typeof xs) =>
    rounds.slice(1).map((r) => (ratio(pick(r)) / first).toFixed(2)).join(" ");
  return `rounds after the first, their first ${FIRST_SLICES} s ${part((r) => r.slice(0, FIRST_SLICES))}; ` +
    `the rest ${part((r) => r.slice(FIRST_SLICES))} (each against the twin, of the first round's)`;
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "budget",
  description:
    "random pages, default budget vs --memory 512MiB, rounds across the idle trim against an untrimmed twin (wrk, 16 connections)",
  run,
};
