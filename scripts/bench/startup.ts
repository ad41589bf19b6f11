/**
 * Benchmark `startup`: what the sandbox costs (issue 30). `svc serve` as the
 * README runs it (`deno run -A cli.ts serve`), which narrows itself (a
 * launcher running the node as a child under computed Deno permissions, SQL
 * workers confined by Landlock), against the same with `--no-sandbox`, in
 * alternating rounds on the same store:
 *
 * - start-up: from spawning the process to the log line saying where it
 *   serves (target, issue 30: within 1.10x of today's, the release before
 *   the sandbox: give a checkout of it in `SVC_BENCH_STARTUP_BASELINE`, e.g.
 *   `git worktree add /tmp/before a8100eb`, and it is measured in the same
 *   alternating rounds; without one, the sandboxed node is held to 1.10x of
 *   `--no-sandbox`, which also lost the MCP SDK's load at start);
 * - the first SQL answer (a worker started, confined or not), for
 *   information;
 * - the SQL round trip once a worker runs (target: within 1.05x).
 *
 * @module
 */
import { startServe } from "../../tests/support/cli_process.ts";
import { type Benchmark, fmtMs, fmtRatio, median, printTable, verdict } from "./_util.ts";
import { ensureSummarySeed } from "./summary_scale.ts";

const ROUNDS = 7;
const QUERIES = 150;
const START_TARGET = 1.10;
const SQL_TARGET = 1.05;

interface Round {
  startMs: number;
  firstSqlMs: number;
  sqlMs: number[];
}

async function query(url: string): Promise<void> {
  const r = await fetch(`${url}/projects/notes/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql: "SELECT id, text FROM records WHERE id % 97 = 3 ORDER BY id LIMIT 20" }),
  });
  if (r.status !== 200) throw new Error(`query answered ${r.status}: ${await r.text()}`);
  await r.arrayBuffer();
}

async function round(store: string, flags: string[], root?: string): Promise<Round> {
  const started = performance.now();
  const node = await startServe(["--store", store, "--read-only", ...flags], {}, { root });
  const startMs = performance.now() - started;
  try {
    const t = performance.now();
    await query(node.url);
    const firstSqlMs = performance.now() - t;
    const sqlMs: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const q = performance.now();
      await query(node.url);
      sqlMs.push(performance.now() - q);
    }
    return { startMs, firstSqlMs, sqlMs };
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
  }
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root } = await ensureSummarySeed();
  const baseline = Deno.env.get("SVC_BENCH_STARTUP_BASELINE") || undefined;
  const sandboxed: Round[] = [];
  const open: Round[] = [];
  const before: Round[] = [];
  await round(root, []); // warms Deno's caches for both forms
  if (baseline) await round(root, [], baseline);
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating which goes first keeps a drift in the machine's load off one side.
    const each = [
      async () => sandboxed.push(await round(root, [])),
      async () => open.push(await round(root, ["--no-sandbox"])),
      ...(baseline ? [async () => before.push(await round(root, [], baseline))] : []),
    ];
    for (const step of i % 2 === 0 ? each : each.reverse()) await step();
  }
  const figure = (rounds: Round[], pick: (r: Round) => number) => median(rounds.map(pick));
  const start = [figure(sandboxed, (r) => r.startMs), figure(open, (r) => r.startMs)];
  const first = [figure(sandboxed, (r) => r.firstSqlMs), figure(open, (r) => r.firstSqlMs)];
  const sql = [median(sandboxed.flatMap((r) => r.sqlMs)), median(open.flatMap((r) => r.sqlMs))];
  printTable(["measure", "sandboxed", "--no-sandbox", "ratio"], [
    ["start-up (spawn to serving)", fmtMs(start[0]), fmtMs(start[1]), fmtRatio(start[0], start[1])],
    ["first SQL answer (worker starts)", fmtMs(first[0]), fmtMs(first[1]), fmtRatio(first[0], first[1])],
    ["SQL round trip (median)", fmtMs(sql[0]), fmtMs(sql[1]), fmtRatio(sql[0], sql[1])],
  ]);
  console.log(`\n${ROUNDS} alternating rounds, ${QUERIES} queries each after the first`);
  if (baseline) {
    const today = figure(before, (r) => r.startMs);
    const todaySql = median(before.flatMap((r) => r.sqlMs));
    console.log(`the release before (${baseline}): start-up ${fmtMs(today)} ms, SQL round trip ${fmtMs(todaySql)} ms`);
    console.log(verdict(start[0] <= today * START_TARGET, `start-up within ${START_TARGET}x of the release before`));
    console.log(verdict(sql[0] <= todaySql * SQL_TARGET, `SQL round trip within ${SQL_TARGET}x of the release before`));
  }
  console.log(verdict(start[0] <= start[1] * START_TARGET, `start-up within ${START_TARGET}x of --no-sandbox`));
  console.log(verdict(sql[0] <= sql[1] * SQL_TARGET, `SQL round trip within ${SQL_TARGET}x of --no-sandbox`));
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "startup",
  description: "svc serve with its sandbox (narrowed node, confined workers) against --no-sandbox",
  run,
};
