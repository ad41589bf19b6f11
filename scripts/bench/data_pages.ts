/**
 * Benchmark `data_pages`: `GET /projects/{slug}/data` pages of a
 * 1,000,000-record version, first, middle and last page, served by a real
 * node over HTTP, against the same page read by native DuckDB in-process
 * (`SELECT * FROM read_parquet([parts]) LIMIT 200 OFFSET k`) and written as
 * the same JSON answer (`{project, version, count, records}`, records as
 * objects, DuckDB's own JSON conversion of the values) measured in the same
 * run. (Until issue 26 the reference stopped at rows materialized to JS,
 * without the JSON text the node has to write.)
 *
 * Two projects hold the same records in the same four parts: one written
 * with small row groups (10,240 rows), one with DuckDB's default (122,880).
 *
 * Targets: the deepest page within 1.5x of the first (per project), and the
 * node's page no slower than DuckDB's own (node/duckdb <= 1.0).
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { serveNode, type ServingNode } from "../../server.ts";
import { openReadEngine, pageReader, partSliceSql, type ReadEngine } from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { type BenchStore, ensureBenchStore, sqlString } from "./_bench_store.ts";
import {
  type Benchmark,
  closedLoop,
  fmtMs,
  fmtRatio,
  interleaved,
  median,
  percentile,
  printTable,
  verdict,
} from "./_util.ts";

/** Records in the benchmark version. */
export const RECORDS = 1_000_000;
/** Parts the version is split into. */
export const PARTS = 4;
/** Records per page. */
export const LIMIT = 200;
/** Offsets measured: the first, the middle and the last page. */
export const OFFSETS: readonly number[] = [0, RECORDS / 2, RECORDS - LIMIT];

/** The two projects: same records and parts, different Parquet row group sizes. */
export const PROJECTS: readonly { slug: string; rowGroupSize: number | undefined; label: string }[] = [
  { slug: "pages-small-groups", rowGroupSize: 10_240, label: "10,240-row groups" },
  { slug: "pages-default-groups", rowGroupSize: undefined, label: "default 122,880-row groups" },
];

/** Target: the deepest page costs at most this many times the first. */
export const DEPTH_TARGET = 1.5;
/** Target: the node's page costs at most this many times DuckDB's own read. */
export const ENGINE_TARGET = 1.0;

/** Concurrent fetchers of the closed-loop req/s run. */
const CONCURRENCY = 4;
/** Rounds of warm-up (every timed call once per round). */
const WARMUP = { maxRuns: 5, maxMs: 1500, minRuns: 2 };
/** Rounds of the interleaved latency loop (five calls per page, three pages, per round). */
const LATENCY = { maxRuns: 150, maxMs: 9000, minRuns: 10 };
/** The closed-loop req/s run. */
const THROUGHPUT = { maxRuns: 20_000, maxMs: 2000 };

/** Bumped whenever the generated data changes, so stale bench data is rebuilt. */
const DATA_SPEC = {
  generator: 2,
  records: RECORDS,
  parts: PARTS,
  projects: PROJECTS.map((p) => [p.slug, p.rowGroupSize ?? null]),
};

/**
 * SQL for `n` bench records starting at id `from`: a BIGINT id, two strings
 * (one NULL in five), a DOUBLE and an INTEGER.
 *
 * @example
 * ```ts
 * import { benchRecordSql } from "./data_pages.ts";
 * benchRecordSql(0, 10);
 * ```
 */
export function benchRecordSql(from: number, n: number): string {
  const id = `(${from} + i)`;
  return `SELECT ${id}::BIGINT AS id, 'record-' || ${id} AS name, (${id} * 0.25)::DOUBLE AS score, ` +
    `(${id} % 97)::INTEGER AS bucket, ` +
    `CASE WHEN ${id} % 5 = 0 THEN NULL ELSE 'note ' || (${id} % 1000) || ' of bucket ' || (${id} % 97) END AS note ` +
    `FROM range(${n}) r(i)`;
}

const FIELDS = [
  { name: "id", type: "integer" },
  { name: "name", type: "string" },
  { name: "score", type: "number" },
  { name: "bucket", type: "integer" },
  { name: "note", type: "string", required: false },
];

/**
 * The bench store under `bench-data/data_pages`, generated when absent or stale,
 * reused otherwise.
 *
 * @example
 * ```ts ignore
 * const { root, parts } = await ensureStore();
 * ```
 */
export function ensureStore(): Promise<BenchStore> {
  return ensureBenchStore(
    "data_pages",
    DATA_SPEC,
    PROJECTS.map((p) => ({
      slug: p.slug,
      title: `Bench pages (${p.label})`,
      fields: FIELDS,
      parts: Array.from(
        { length: PARTS },
        (_, i) => ({ sql: benchRecordSql(i * (RECORDS / PARTS), RECORDS / PARTS), rowGroupSize: p.rowGroupSize }),
      ),
    })),
  );
}

/** What one page (project, offset) measured. */
interface Row {
  slug: string;
  offset: number;
  nodeMs: number;
  nodeP90: number;
  nodeRps: number;
  duckMs: number;
  handlerMs: number;
  pageMs: number;
  queryMs: number;
}

/** The timed calls of one page, in the order they run in each round. */
const CALLS = ["node", "duckdb", "handler", "page", "query"] as const;

async function fetchPage(url: string): Promise<string> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

function checkPage(text: string, offset: number, what: string): void {
  const body = JSON.parse(text);
  const first = body.records?.[0]?.id;
  if (body.count !== LIMIT || Number(first) !== offset) {
    throw new Error(`${what}: expected ${LIMIT} records from id ${offset}, got ${body.count} from id ${first}`);
  }
}

/** The per-part queries the node's page reader runs for a page (same arithmetic as src/parquet/pages.ts). */
function partQueries(paths: readonly string[], sizes: readonly number[], offset: number): string[] {
  const queries: string[] = [];
  let start = 0;
  let planned = 0;
  for (let i = 0; i < sizes.length && planned < LIMIT; i++) {
    const end = start + sizes[i];
    if (offset < end) {
      const from = Math.max(0, offset - start);
      const want = Math.min(LIMIT - planned, sizes[i] - from);
      planned += want;
      queries.push(partSliceSql(paths[i], from, want));
    }
    start = end;
  }
  return queries;
}

/**
 * Runs the benchmark: generates or reuses the data, serves a node, times
 * every page over HTTP and with native DuckDB, prints the tables and the
 * targets.
 *
 * Per project, every page's calls (node over HTTP, DuckDB reference, and the
 * in-process breakdown) run interleaved in rounds, so the node/duckdb and
 * deepest/first ratios compare figures taken at the same moments.
 *
 * @example
 * ```ts ignore
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const serving: ServingNode = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  let duck: DuckDBInstance | null = null;
  let conn: DuckDBConnection | null = null;
  // The node's page reader on an engine of its own, for the breakdown: the
  // same code the data route runs, without routing or HTTP.
  let engine: ReadEngine | null = null;
  const rows: Row[] = [];
  try {
    duck = await DuckDBInstance.create(":memory:");
    conn = await duck.connect();
    engine = await openReadEngine(root);
    const reference = conn;
    const own = engine;
    const pages = pageReader(own);
    const store = openStore(root);
    const threads = (await reference.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0];
    console.log(
      `node ${serving.url} (quiet, no token); reference: native DuckDB in-process, threads=${threads}; ` +
        `page limit ${LIMIT}; ${CONCURRENCY} fetchers for the req/s run`,
    );
    const host = new URL(serving.url).host;
    for (const p of PROJECTS) {
      const list = parts.get(p.slug)!.map(sqlString).join(", ");
      const version = await store.version(p.slug, 1);
      if (!version) throw new Error(`${p.slug} v1 is not whole in ${root}`);
      const sizes = await pages.partRecords(version);
      const fns: (() => Promise<unknown>)[] = [];
      const urls: string[] = [];
      for (const offset of OFFSETS) {
        const url = `${serving.url}/projects/${p.slug}/data?version=1&limit=${LIMIT}&offset=${offset}`;
        const sql = `SELECT * FROM read_parquet([${list}]) LIMIT ${LIMIT} OFFSET ${offset}`;
        const queries = partQueries(version.parts.map((x) => x.path), sizes, offset);
        const duckPage = async () => {
          const records = (await reference.runAndReadAll(sql)).getRowObjectsJson();
          return { records, text: JSON.stringify({ project: p.slug, version: 1, count: records.length, records }) };
        };

        // Both must read the right records.
        checkPage(await fetchPage(url), offset, `node ${p.slug}`);
        const got = (await duckPage()).records;
        if (got.length !== LIMIT || Number(got[0].id) !== offset) {
          throw new Error(`duckdb ${p.slug}: expected ${LIMIT} rows from id ${offset}, got ${got.length}`);
        }
        urls.push(url);
        // In CALLS order: the node over HTTP; the reference; then where the
        // node's time goes, in-process: its handler without HTTP, the page
        // reader (DuckDB + JSON text), and the per-part SQL alone.
        fns.push(
          () => fetchPage(url),
          duckPage,
          async () => await (await serving.node.handler(new Request(url, { headers: { host } }))).text(),
          () => pages.page(version, offset, LIMIT),
          () =>
            own.use(async (c) => {
              for (const q of queries) await (await c.run(q)).fetchAllChunks();
            }),
        );
      }
      await interleaved(fns, WARMUP);
      const samples = await interleaved(fns, LATENCY);
      for (let o = 0; o < OFFSETS.length; o++) {
        const [node, duckSamples, handler, page, query] = CALLS.map((_, c) => samples[o * CALLS.length + c]);
        const loop = await closedLoop(() => fetchPage(urls[o]), CONCURRENCY, THROUGHPUT);
        const r: Row = {
          slug: p.slug,
          offset: OFFSETS[o],
          nodeMs: median(node),
          nodeP90: percentile(node, 90),
          nodeRps: loop.perSecond,
          duckMs: median(duckSamples),
          handlerMs: median(handler),
          pageMs: median(page),
          queryMs: median(query),
        };
        rows.push(r);
        console.log(
          `  ${p.slug} offset ${r.offset}: node ${fmtMs(r.nodeMs)} ms, duckdb ${fmtMs(r.duckMs)} ms ` +
            `(${node.length} rounds); ${r.nodeRps.toFixed(0)} req/s (${loop.calls} calls)`,
        );
      }
    }
  } finally {
    conn?.closeSync();
    duck?.closeSync();
    await engine?.close();
    await serving.shutdown();
  }
  report(rows);
}

function report(rows: readonly Row[]): void {
  console.log("\nGET /projects/{slug}/data, limit 200: node over HTTP vs native DuckDB in-process (same run)\n");
  printTable(
    ["project", "offset", "node median ms", "node p90 ms", "node req/s", "duckdb median ms", "node/duckdb"],
    rows.map((r) => [
      r.slug,
      String(r.offset),
      fmtMs(r.nodeMs),
      fmtMs(r.nodeP90),
      r.nodeRps.toFixed(0),
      fmtMs(r.duckMs),
      fmtRatio(r.nodeMs, r.duckMs),
    ]),
  );

  console.log("\nWhere the node's time goes (medians, ms; interleaved with the above)\n");
  printTable(
    ["project", "offset", "HTTP round trip", "handler (no HTTP)", "pageReader.page", "per-part SQL only"],
    rows.map((r) => [r.slug, String(r.offset), fmtMs(r.nodeMs), fmtMs(r.handlerMs), fmtMs(r.pageMs), fmtMs(r.queryMs)]),
  );

  console.log("\nDepth: deepest page / first page\n");
  const depth = PROJECTS.map((p) => {
    const mine = rows.filter((r) => r.slug === p.slug);
    const first = mine.find((r) => r.offset === OFFSETS[0])!;
    const deepest = mine.find((r) => r.offset === OFFSETS[OFFSETS.length - 1])!;
    return { slug: p.slug, first, deepest, ratio: deepest.nodeMs / first.nodeMs };
  });
  printTable(
    ["project", "node first ms", "node deepest ms", "node deepest/first", "duckdb deepest/first"],
    depth.map((d) => [
      d.slug,
      fmtMs(d.first.nodeMs),
      fmtMs(d.deepest.nodeMs),
      fmtRatio(d.deepest.nodeMs, d.first.nodeMs),
      fmtRatio(d.deepest.duckMs, d.first.duckMs),
    ]),
  );

  console.log(`\nTargets (benchmarks inform, they do not gate)\n`);
  for (const d of depth) {
    console.log(
      verdict(d.ratio <= DEPTH_TARGET, `${d.slug}: node deepest/first ${d.ratio.toFixed(2)}x <= ${DEPTH_TARGET}x`),
    );
  }
  for (const r of rows) {
    const ratio = r.nodeMs / r.duckMs;
    console.log(
      verdict(
        ratio <= ENGINE_TARGET,
        `${r.slug} offset ${r.offset}: node/duckdb ${ratio.toFixed(2)}x <= ${ENGINE_TARGET.toFixed(1)}x`,
      ),
    );
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "data_pages",
  description: "GET /data pages (first, middle, last of 1M records) over HTTP vs native DuckDB LIMIT/OFFSET",
  run,
};
