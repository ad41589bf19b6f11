/**
 * Benchmark `delta_sharing`: Delta Sharing's `query` of a table of 1,000
 * parts, and of a newest version made by 1,000 merges, against the node's
 * own `GET /projects/{slug}/manifest` of the same version in the same run;
 * `metadata` against `GET /projects/{slug}`; and the node's memory over
 * 10,000 queries.
 *
 * Targets: query at most 1.5x the manifest (warm: footers read once and
 * kept), metadata at most 1.2x the project, memory flat (the live heap after
 * the last 1,000 queries within 10% of the one after the first 1,000); and
 * (issue 47) a node's first query over the 1,000 parts, their footers kept
 * on disk by an earlier node, costs beyond a warm query at most a quarter of
 * what the first node's first query, with none kept, costs beyond it (that
 * node reads every part's footer).
 *
 * @module
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { ensureBenchStore } from "./_bench_store.ts";
import { type Benchmark, fmtMs, fmtRatio, interleaved, median, printTable, processTreeRss, verdict } from "./_util.ts";

/** Parts of the wide table. */
export const PARTS = 1000;
/** Merges that make the merged table. */
export const MERGES = 1000;
/** Queries of the memory run. */
export const QUERIES = 10_000;

const QUERY_TARGET = 1.5;
/**
 * Target (issue 47): what a node's first query over the wide table costs
 * beyond a warm one, its parts' footers kept, at most this share of what
 * reading every part's footer costs (the first node's extra).
 */
const FIRST_TARGET = 0.25;
const METADATA_TARGET = 1.2;
const MEMORY_TARGET = 1.1;
const TOKEN = "bench-token-0123456789abcdef";
const AUTH = { authorization: `Bearer ${TOKEN}` };

const FIELDS = [{ name: "id", type: "integer" }, { name: "name", type: "string" }, { name: "score", type: "number" }];

async function drain(res: Response): Promise<void> {
  if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

async function mergeMany(url: string, slug: string): Promise<void> {
  const headers = { ...AUTH, "content-type": "application/json" };
  const project = {
    slug,
    title: "Merged",
    readme: "A project made by a thousand contributions.",
    schemaDef: { fields: FIELDS, allowExtra: false },
  };
  await drain(await fetch(`${url}/projects`, { method: "POST", headers, body: JSON.stringify(project) }));
  for (let i = 0; i < MERGES; i++) {
    const records = Array.from({ length: 5 }, (_, k) => ({ id: i * 5 + k, name: `n${i * 5 + k}`, score: k / 2 }));
    await drain(
      await fetch(`${url}/projects/${slug}/contribute`, { method: "POST", headers, body: JSON.stringify({ records }) }),
    );
  }
}

function timed(url: string, slug: string) {
  const base = `${url}/delta-sharing/shares/svc/schemas/default/tables/${slug}`;
  const post = { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: "{}" };
  return {
    query: async () => await drain(await fetch(`${base}/query`, post)),
    manifest: async () => await drain(await fetch(`${url}/projects/${slug}/manifest`, { headers: AUTH })),
    metadata: async () => await drain(await fetch(`${base}/metadata`, { headers: AUTH })),
    project: async () => await drain(await fetch(`${url}/projects/${slug}`, { headers: AUTH })),
  };
}

async function run(): Promise<void> {
  const store = await ensureBenchStore("delta_sharing", { parts: PARTS, v: 1 }, [{
    slug: "wide",
    title: "A thousand parts",
    fields: FIELDS,
    parts: Array.from({ length: PARTS }, (_, p) => ({
      sql: `SELECT (${p} * 100 + i)::BIGINT AS id, 'n' || i AS name, i / 3 AS score FROM range(100) r(i)`,
    })),
  }]);
  // The footers kept beside the parts by an earlier run: gone, so the first node reads every part's.
  await rm(join(store.root, "wide", "footers"), { recursive: true, force: true });
  const first = await serveNode({ store: store.root, host: "127.0.0.1", port: 0, token: TOKEN, log: null });
  let t1 = performance.now();
  await timed(first.url, "wide").query();
  const nothingKept = performance.now() - t1;
  await first.shutdown();
  // Another node over the same store: it reads the footers the first kept.
  const serving = await serveNode({ store: store.root, host: "127.0.0.1", port: 0, token: TOKEN, log: null });
  t1 = performance.now();
  await timed(serving.url, "wide").query();
  const kept = performance.now() - t1;
  try {
    const merged = `merged-${crypto.randomUUID().slice(0, 8)}`;
    const t0 = performance.now();
    await mergeMany(serving.url, merged);
    console.log(`${MERGES} merges in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const rows: string[][] = [];
    const results: boolean[] = [];
    let warm = NaN;
    for (const slug of ["wide", merged]) {
      const f = timed(serving.url, slug);
      const cold = performance.now();
      await f.query();
      const coldMs = performance.now() - cold;
      const [q, m, md, p] = await interleaved([f.query, f.manifest, f.metadata, f.project], {
        maxRuns: 60,
        maxMs: 20_000,
        minRuns: 10,
      });
      if (slug === "wide") warm = median(q);
      const queryRatio = median(q) / median(m);
      const metaRatio = median(md) / median(p);
      results.push(queryRatio <= QUERY_TARGET, metaRatio <= METADATA_TARGET);
      rows.push([
        slug === "wide" ? `${PARTS} parts` : `after ${MERGES} merges`,
        fmtMs(coldMs),
        fmtMs(median(q)),
        fmtMs(median(m)),
        fmtRatio(median(q), median(m)),
        fmtMs(median(md)),
        fmtMs(median(p)),
        fmtRatio(median(md), median(p)),
      ]);
    }
    printTable(
      ["table", "first query", "query", "manifest", "query/manifest", "metadata", "project", "metadata/project"],
      rows,
    );
    console.log(
      `\n${PARTS} parts, a node's first query: ${fmtMs(nothingKept)} ms with no footers kept (every part's read ` +
        `and kept), ${fmtMs(kept)} ms on the next node, which reads the kept ones; a warm query ${fmtMs(warm)} ms\n`,
    );
    console.log(verdict(results[0] && results[2], `query <= ${QUERY_TARGET}x manifest, warm`));
    const extra = (kept - warm) / (nothingKept - warm);
    console.log(
      verdict(
        extra <= FIRST_TARGET,
        `a node's first query over ${PARTS} parts, their footers kept, costs ${extra.toFixed(2)}x beyond a warm ` +
          `one of what reading them all does (<= ${FIRST_TARGET}x)`,
      ),
    );
    console.log(verdict(results[1] && results[3], `metadata <= ${METADATA_TARGET}x project`));
    const f = timed(serving.url, merged);
    const rss: number[] = [];
    const live: number[] = [];
    // Live memory is the JavaScript heap after a full collection (deno task bench runs with --expose-gc); RSS
    // alone climbs until V8 decides to collect, whatever is kept.
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 1; i <= QUERIES; i++) {
      await f.query();
      if (i % 1000 !== 0) continue;
      rss.push(await processTreeRss(Deno.pid));
      gc?.();
      live.push(Deno.memoryUsage().heapUsed);
    }
    const mib = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MiB`;
    console.log(`RSS every 1,000 queries: ${rss.map(mib).join(", ")}`);
    console.log(
      `live heap after a full collection${gc ? "" : " (no --expose-gc: not collected)"}: ${live.map(mib).join(", ")}`,
    );
    const growth = live[live.length - 1] / live[0];
    console.log(
      verdict(
        growth <= MEMORY_TARGET,
        `memory flat over ${QUERIES} queries: live heap last/first ${growth.toFixed(2)}x`,
      ),
    );
  } finally {
    await serving.shutdown();
  }
}

/** The benchmark. */
export const benchmark: Benchmark = {
  name: "delta_sharing",
  description: "Delta Sharing query and metadata against the node's manifest and project answers, and memory",
  run,
};
