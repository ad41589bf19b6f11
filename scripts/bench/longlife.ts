/**
 * Benchmark `longlife`: a local project that takes contributions for years.
 * 100,000 contributions of 1-10 records (`SVC_BENCH_LONGLIFE=N` for another
 * count) go to one project through the node's request handler in-process
 * (the service layer, no sockets), then a sample of 1,000 over HTTP. At 1k,
 * 10k and 100k versions it measures the newest manifest's bytes on disk and
 * served, the store's bytes per record, a contribution's time, a first
 * page's, a diff of the last 100 versions, a change-feed read of them
 * (Delta Sharing `/changes`) and the resident size at rest (after the node's
 * idle trim; the bench's own process, which holds the node); once keeping
 * every version, once with `--keep-versions 10` (its diff and changes of the
 * last 9, which it holds). Then a node with `--memory
 * 512MiB`, inside a 512 MiB memory cgroup the bench makes (as root), serves
 * pages, SQL and contributions over the 100k-version store for 30 s.
 *
 * Then 1,000 batches go in turn to that project and to a young one made
 * beside it (`_longlife_paired.ts`): the same minute, the same records.
 *
 * Targets: manifest bytes on disk at the last checkpoint within 1.2x of
 * those at 1k, store bytes per record within 1.5x, contribution and page
 * p99 within 1.5x (the contribution's also against the young project's in
 * turn, which a busier machine at one checkpoint cannot sway); the budgeted
 * node answers no 503 and is not killed.
 *
 * @module
 */
import { rm } from "node:fs/promises";
import { createNode, type SvcNode } from "../../src/node/mod.ts";
import { serveNode } from "../../server.ts";
import { benchDataDir, type Benchmark, fmtMs, percentile, printTable, verdict } from "./_util.ts";
import { budgetedLoad } from "./_longlife_budget.ts";
import { noteBatches } from "./_longlife_batches.ts";
import { pairedContributions } from "./_longlife_paired.ts";
import { TRIM_AFTER_MS } from "../../src/service/mod.ts";

const TOTAL = Number(Deno.env.get("SVC_BENCH_LONGLIFE") ?? 100_000);
/** 1k, 10k and 100k versions, and the last when a shorter run stops between them. */
const CHECKPOINTS = [...new Set([1_000, 10_000, 100_000, TOTAL])].filter((n) => n <= TOTAL).sort((a, b) => a - b);
const SAMPLED = 1_000;
const SLUG = "life";
const PROJECT = {
  slug: SLUG,
  title: "Long life",
  readme: "Records an agent writes a batch at a time, for years.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
};

/** One checkpoint's figures. */
interface Figures {
  versions: number;
  manifestDisk: number;
  manifestServed: number;
  bytesPerRecord: number;
  contribution: { p50: number; p99: number };
  page: { p50: number; p99: number };
  diffMs: number;
  changesMs: number;
  restMiB: number;
}

function inProcess(node: SvcNode) {
  const info = { remoteAddr: "127.0.0.1" };
  return async (method: string, path: string, body?: unknown): Promise<Response> =>
    await node.handler(
      new Request(`http://127.0.0.1:8686${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      info,
    );
}

async function du(path: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sb", path], stdout: "piped" }).output();
  return Number(new TextDecoder().decode(out.stdout).split("\t")[0]);
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const t = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`answered ${res.status}`);
  return performance.now() - t;
}

async function checkpoint(
  call: ReturnType<typeof inProcess>,
  root: string,
  n: number,
  records: number,
  recent: number[],
  window: number,
): Promise<Figures> {
  const manifestDisk = (await Deno.stat(`${root}/${SLUG}/v${n}/manifest.json`)).size;
  const manifestServed = (await (await call("GET", `/projects/${SLUG}/manifest`)).arrayBuffer()).byteLength;
  const pages: number[] = [];
  for (let i = 0; i < 1_000; i++) pages.push(await timed(() => call("GET", `/projects/${SLUG}/data?limit=200`)));
  const from = Math.max(0, n - window);
  const diffs: number[] = [];
  for (let i = 0; i < 5; i++) {
    diffs.push(await timed(() => call("GET", `/projects/${SLUG}/diff?from=${from}&to=${n}&limit=0`)));
  }
  const changes: number[] = [];
  const table = `/delta-sharing/shares/svc/schemas/default/tables/${SLUG}/changes?startingVersion=${from + 1}`;
  for (let i = 0; i < 5; i++) changes.push(await timed(() => call("GET", table)));
  // At rest: once the node's idle trim has run (the page cache cut, garbage collected, DuckDB's free memory returned).
  await new Promise((r) => setTimeout(r, TRIM_AFTER_MS + 2_000));
  (globalThis as { gc?: () => void }).gc?.();
  return {
    versions: n,
    manifestDisk,
    manifestServed,
    bytesPerRecord: (await du(`${root}/${SLUG}`)) / records,
    contribution: { p50: percentile(recent, 50), p99: percentile(recent, 99) },
    page: { p50: percentile(pages, 50), p99: percentile(pages, 99) },
    diffMs: percentile(diffs, 50),
    changesMs: percentile(changes, 50),
    restMiB: Deno.memoryUsage().rss / 1024 ** 2,
  };
}

/** Makes the store: `TOTAL` contributions in-process; the figures at each checkpoint. */
async function grow(root: string, keepVersions: number | null): Promise<Figures[]> {
  await rm(root, { recursive: true, force: true });
  const node = await createNode({
    store: root,
    host: "127.0.0.1",
    token: null,
    log: null,
    keepVersions,
    metrics: false,
  });
  const call = inProcess(node);
  const out: Figures[] = [];
  try {
    if ((await call("POST", "/projects", PROJECT)).status !== 201) throw new Error("the project was not made");
    const batch = noteBatches(42, 0, "note");
    let id = 0;
    const times: number[] = [];
    const started = performance.now();
    for (let c = 1; c <= TOTAL; c++) {
      const records = batch();
      id += records.length;
      times.push(await timed(() => call("POST", `/projects/${SLUG}/contribute`, { records })));
      if (c % 5_000 === 0) {
        const rate = c / ((performance.now() - started) / 1000);
        console.error(`  ${c.toLocaleString("en")} contributions (${rate.toFixed(0)}/s)`);
      }
      if (CHECKPOINTS.includes(c)) {
        // The last 100 versions, or those a pruned project still holds.
        const window = keepVersions === null ? 100 : keepVersions - 1;
        out.push(await checkpoint(call, root, c, id, times.slice(-1_000), window));
      }
    }
  } finally {
    await node.close();
  }
  return out;
}

/** A sample of contributions over HTTP, on top of the grown store. */
async function overHttp(root: string): Promise<{ p50: number; p99: number }> {
  const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  const times: number[] = [];
  try {
    for (let i = 0; i < SAMPLED; i++) {
      const records = [{ id: 1e9 + i, text: `over HTTP ${i}` }];
      times.push(
        await timed(() =>
          fetch(`${serving.url}/projects/${SLUG}/contribute`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ records }),
          })
        ),
      );
    }
  } finally {
    await serving.shutdown();
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

function report(title: string, figures: Figures[]): string[] {
  console.log(`\n${title}\n`);
  printTable(
    [
      "versions",
      "manifest on disk",
      "manifest served",
      "store B/record",
      "contribute p50/p99",
      "first page p50/p99",
      "diff of the last",
      "changes of the last",
      "RSS at rest",
    ],
    figures.map((f) => [
      f.versions.toLocaleString("en"),
      `${f.manifestDisk.toLocaleString("en")} B`,
      `${f.manifestServed.toLocaleString("en")} B`,
      f.bytesPerRecord.toFixed(0),
      `${fmtMs(f.contribution.p50)} / ${fmtMs(f.contribution.p99)}`,
      `${fmtMs(f.page.p50)} / ${fmtMs(f.page.p99)}`,
      fmtMs(f.diffMs),
      fmtMs(f.changesMs),
      `${f.restMiB.toFixed(0)} MiB`,
    ]),
  );
  const first = figures[0];
  const last = figures[figures.length - 1];
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  return [
    verdict(
      last.manifestDisk <= first.manifestDisk * 1.2,
      `${title}: manifest on disk ${ratio(last.manifestDisk, first.manifestDisk)}x of 1k's <= 1.2x`,
    ),
    verdict(
      last.bytesPerRecord <= first.bytesPerRecord * 1.5,
      `${title}: store bytes per record ${ratio(last.bytesPerRecord, first.bytesPerRecord)}x <= 1.5x`,
    ),
    verdict(
      last.contribution.p99 <= first.contribution.p99 * 1.5,
      `${title}: contribution p99 ${ratio(last.contribution.p99, first.contribution.p99)}x <= 1.5x`,
    ),
    verdict(
      last.page.p99 <= first.page.p99 * 1.5,
      `${title}: first page p99 ${ratio(last.page.p99, first.page.p99)}x <= 1.5x`,
    ),
  ];
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const kept = benchDataDir(".longlife-all");
  const pruned = benchDataDir(".longlife-keep10");
  console.log(`${TOTAL.toLocaleString("en")} contributions of 1-10 records, in-process through the node's handler\n`);
  const verdicts: string[] = [];
  const all = await grow(kept, null);
  verdicts.push(...report("every version kept", all));
  const http = await overHttp(kept);
  console.log(`\n${SAMPLED} more over HTTP: p50 ${fmtMs(http.p50)}, p99 ${fmtMs(http.p99)}`);
  verdicts.push(await pairedContributions(kept, SLUG, TOTAL));
  const keep = await grow(pruned, 10);
  verdicts.push(...report("--keep-versions 10", keep));
  await rm(pruned, { recursive: true, force: true });
  console.log(
    "\na node with --memory 512MiB in a 512 MiB cgroup over the store of every version, 30 s of mixed load\n",
  );
  verdicts.push(await budgetedLoad(kept, SLUG));
  console.log(`\n${verdicts.join("\n")}`);
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "longlife",
  description: "100,000 contributions to one project: what a version costs at 1k, 10k and 100k versions",
  run,
};
