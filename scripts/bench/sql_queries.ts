/**
 * Benchmark `sql_queries`: `POST /projects/{slug}/query` over a
 * 1,000,000-record version, served by a real node over HTTP (its SQL worker
 * pool: long-lived worker processes, a locked-down DuckDB per version),
 * against the same SQL run by native DuckDB in-process, set up as the node's
 * sandbox is (a view `records` over `read_parquet([parts])`, with
 * `union_by_name` only when the parts' columns differ, the Parquet metadata
 * cache on, the same threads; rows materialized to JS), measured in the same
 * run. (Until issue 26 the reference always used `union_by_name` and no
 * metadata cache, which made it 1.8x slower on 200 parts and flattered the
 * node.)
 *
 * Two projects hold the same records: one in a single part of 1,000,000
 * records, one in 200 parts of 5,000.
 *
 * Target: the node's median within 1.3x of DuckDB's own (node/duckdb <= 1.3),
 * per query and layout.
 *
 * Beside the targets it shows where the node's time goes, in the same rounds
 * (the pool without HTTP or routing, the worker's runQuery in-process, its
 * prepare step alone, the sandbox's DuckDB alone), the fixed costs of a
 * request (`SELECT 42`) and the cold first query of each layout.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { serveNode, type ServingNode } from "../../server.ts";
import { createSqlPool, scrubber, type SqlPool, sqlSource } from "../../src/sql/mod.ts";
import { closeSandbox, openSandbox, type Sandbox } from "../../src/sql/_sandbox.ts";
import { runQuery } from "../../src/sql/_run_query.ts";
import { openStore } from "../../src/store/mod.ts";
import { type BenchStore, ensureBenchStore, sqlString } from "./_bench_store.ts";
import { startServe } from "../../tests/support/cli_process.ts";
import {
  type Benchmark,
  fmtMs,
  fmtRatio,
  interleaved,
  median,
  percentile,
  printTable,
  processTreeRss,
  verdict,
} from "./_util.ts";

/** Records in the benchmark version. */
export const RECORDS = 1_000_000;

/** The two layouts of the same records: one large part, or 200 small ones. */
export const LAYOUTS: readonly { slug: string; parts: number; label: string }[] = [
  { slug: "sql-one-part", parts: 1, label: "1 part" },
  { slug: "sql-200-parts", parts: 200, label: "200 parts" },
];

/** The statements measured, each with the `limit` the request sends. */
export const QUERIES: readonly { name: string; sql: string; limit: number }[] = [
  { name: "count", sql: "SELECT count(*) FROM records", limit: 200 },
  {
    name: "group-by",
    sql: "SELECT country, count(*), avg(score), max(population) FROM records " +
      "GROUP BY country ORDER BY 2 DESC LIMIT 20",
    limit: 200,
  },
  { name: "like-count", sql: "SELECT count(*) FROM records WHERE name LIKE '%77%'", limit: 200 },
  {
    name: "like-rows",
    sql: "SELECT id, name, country, score, note FROM records WHERE name LIKE '%777%' ORDER BY id LIMIT 200",
    limit: 200,
  },
];

/** Target: the node's median costs at most this many times DuckDB's own. */
export const ENGINE_TARGET = 1.3;

/** DuckDB threads of the reference: the node's SQL workers run 2 (`SqlPoolOptions.threads`). */
const THREADS = 2;
/** Rounds of warm-up per layout (every timed call once per round). */
const WARMUP = { maxRuns: 2, maxMs: 4000, minRuns: 1 };
/** Rounds of the interleaved latency loop per layout (six calls per query, four queries, per round). */
const LATENCY = { maxRuns: 40, maxMs: 35_000, minRuns: 5 };
/** Rounds of the fixed-cost loop per layout (`SELECT 42`, five calls per round). */
const FIXED = { maxRuns: 150, maxMs: 3000, minRuns: 10 };

/** Bumped whenever the generated data changes, so stale bench data is rebuilt. */
const DATA_SPEC = {
  generator: 1,
  records: RECORDS,
  layouts: LAYOUTS.map((l) => [l.slug, l.parts]),
};

/**
 * SQL for `n` bench records starting at id `from`: `id BIGINT`, `name
 * VARCHAR` (`'city-' || id`), `country VARCHAR` (200 values, country k held
 * by 25 * (2k + 1) records, so every count differs), `population BIGINT`,
 * `score DOUBLE` and `note VARCHAR` (NULL in one record of seven).
 *
 * @example
 * ```ts
 * import { cityRecordSql } from "./sql_queries.ts";
 * cityRecordSql(0, 10);
 * ```
 */
export function cityRecordSql(from: number, n: number): string {
  const id = `(${from} + i)`;
  return `SELECT ${id}::BIGINT AS id, 'city-' || ${id} AS name, ` +
    `'country-' || lpad(floor(sqrt((${id} * 7919) % 40000))::INTEGER::VARCHAR, 3, '0') AS country, ` +
    `((${id} * 104729) % 10000000)::BIGINT AS population, ((${id} % 10000) * 0.01)::DOUBLE AS score, ` +
    `CASE WHEN ${id} % 7 = 0 THEN NULL ELSE 'note ' || (${id} % 1000) END AS note ` +
    `FROM range(${n}) r(i)`;
}

const FIELDS = [
  { name: "id", type: "integer" },
  { name: "name", type: "string" },
  { name: "country", type: "string" },
  { name: "population", type: "integer" },
  { name: "score", type: "number" },
  { name: "note", type: "string", required: false },
];

/**
 * The bench store under `bench-data/sql_queries`, generated when absent or stale,
 * reused otherwise.
 *
 * @example
 * ```ts ignore
 * const { root, parts } = await ensureStore();
 * ```
 */
export function ensureStore(): Promise<BenchStore> {
  return ensureBenchStore(
    "sql_queries",
    DATA_SPEC,
    LAYOUTS.map((p) => ({
      slug: p.slug,
      title: `Bench SQL (${p.label})`,
      fields: FIELDS,
      parts: Array.from(
        { length: p.parts },
        (_, i) => ({ sql: cityRecordSql(i * (RECORDS / p.parts), RECORDS / p.parts) }),
      ),
    })),
  );
}

/** What one (layout, query) measured; every figure is a median in ms unless named otherwise. */
interface Row {
  layout: string;
  query: string;
  rounds: number;
  nodeMs: number;
  nodeP90: number;
  duckMs: number;
  duckP90: number;
  poolMs: number;
  workerMs: number;
  workerMean: number;
  runQueryMs: number;
  prepareMs: number;
  sandboxMs: number;
}

/** The fixed costs of one layout, measured with `SELECT 42` (medians, ms). */
interface Fixed {
  layout: string;
  rounds: number;
  nodeMs: number;
  handlerMs: number;
  poolMs: number;
  runQueryMs: number;
  prepMs: number;
}

/** What the first query on a layout cost. */
interface Cold {
  layout: string;
  nodeMs: number;
  workerMs: number;
  sandboxOpenMs: number;
  duckMs: number;
  workersBefore: number;
  workersAfter: number;
}

/** The timed calls of one query, in the order they run in each round. */
const CALLS = ["node", "duckdb", "pool", "runQuery", "prepare", "sandbox"] as const;

interface Answer {
  rows: unknown[][];
  count: number;
  truncated: boolean;
  ms: number;
}

async function postQuery(url: string, body: string): Promise<string> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url} ${body}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

function sameCell(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  const x = typeof a === "bigint" ? Number(a) : a;
  const y = typeof b === "bigint" ? Number(b) : b;
  if (typeof x === "number" && typeof y === "number") return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
  return String(x) === String(y);
}

/** Throws unless `got` holds the same rows as `want` (numbers to 1e-9 relative). */
function checkRows(got: readonly unknown[][], want: readonly unknown[][], what: string): void {
  const same = got.length === want.length &&
    got.every((row, r) => row.length === want[r].length && row.every((cell, c) => sameCell(cell, want[r][c])));
  if (!same) {
    const show = (rows: readonly unknown[][]) =>
      JSON.stringify(rows.slice(0, 3), (_, v) => typeof v === "bigint" ? v.toString() : v);
    throw new Error(`${what}: ${got.length} rows ${show(got)}, DuckDB ${want.length} rows ${show(want)}`);
  }
}

const bodyOf = (sql: string, limit: number) => JSON.stringify({ sql, version: 1, limit });

/** Whether every part has the same columns in the same order (the sandbox's test for leaving out `union_by_name`). */
async function sameColumns(connection: DuckDBConnection, list: string): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT file_name, name, type, logical_type::VARCHAR FROM parquet_schema(${list})`,
  );
  const signatures = new Map<string, string>();
  for (const [file, ...column] of reader.getRows()) {
    signatures.set(String(file), `${signatures.get(String(file)) ?? ""}|${column.join(":")}`);
  }
  return new Set(signatures.values()).size <= 1;
}

/**
 * Runs the benchmark: generates or reuses the data, serves a node, times
 * every query over HTTP and with native DuckDB, prints the tables and the
 * targets.
 *
 * Per layout, every query's calls (node over HTTP, DuckDB reference, and the
 * breakdown) run interleaved in rounds, so each node/duckdb ratio compares
 * figures taken at the same moments.
 *
 * @example
 * ```ts ignore
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const realRoot = await realpath(root);
  const serving: ServingNode = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  let duck: DuckDBInstance | null = null;
  let conn: DuckDBConnection | null = null;
  // For the breakdown: a pool of the node's own code (one worker) called
  // without routing or HTTP, and a sandbox opened in this process, on which
  // the worker's runQuery (DuckDB + JSON text) and DuckDB alone are timed.
  let pool: SqlPool | null = null;
  let sandbox: Sandbox | null = null;
  const temp = await mkdtemp(join(tmpdir(), "svc-bench-sql-"));
  const rows: Row[] = [];
  const fixed: Fixed[] = [];
  const colds: Cold[] = [];
  try {
    duck = await DuckDBInstance.create(":memory:", { threads: String(THREADS) });
    conn = await duck.connect();
    // As the node's sandbox: parts never change, so their footers are cached.
    await conn.run("SET parquet_metadata_cache = true");
    pool = createSqlPool({ storeRoot: realRoot, size: 1 });
    const reference = conn;
    const ownPool = pool;
    const store = openStore(root);
    const scrub = scrubber({ [realRoot]: "<store>", [temp]: "<tmp>", [homedir()]: "~", [Deno.cwd()]: "<cwd>" });
    const limits = { memoryLimit: "1GB", threads: THREADS, tempLimit: "2GB" };
    const threads = (await reference.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0];
    console.log(
      `node ${serving.url} (quiet, no token, SQL pool defaults: 2 workers x ${THREADS} DuckDB threads); ` +
        `reference: native DuckDB in-process, threads=${threads}`,
    );
    const host = new URL(serving.url).host;
    for (const [index, l] of LAYOUTS.entries()) {
      const paths = parts.get(l.slug)!;
      const list = paths.map(sqlString).join(", ");
      const version = await store.version(l.slug, 1);
      if (!version) throw new Error(`${l.slug} v1 is not whole in ${root}`);
      const source = await sqlSource(realRoot, version);
      const url = `${serving.url}/projects/${l.slug}/query`;

      // Cold: the node's first query on this layout (the first of the run
      // also starts a worker process), DuckDB's first on a fresh view, and
      // what opening a sandbox costs in this process.
      const workersBefore = serving.node.sqlPids().length;
      let t0 = performance.now();
      const coldText = await postQuery(url, bodyOf(QUERIES[0].sql, QUERIES[0].limit));
      const coldNode = performance.now() - t0;
      const workersAfter = serving.node.sqlPids().length;
      const byName = (await sameColumns(reference, `[${list}]`)) ? "" : ", union_by_name = true";
      await reference.run(`CREATE OR REPLACE VIEW records AS SELECT * FROM read_parquet([${list}]${byName})`);
      t0 = performance.now();
      (await reference.runAndReadAll(QUERIES[0].sql)).getRows();
      const coldDuck = performance.now() - t0;
      if (sandbox) closeSandbox(sandbox);
      sandbox = null;
      t0 = performance.now();
      sandbox = await openSandbox(source.parts, join(temp, String(index)), limits);
      const sandboxOpenMs = performance.now() - t0;
      colds.push({
        layout: l.label,
        nodeMs: coldNode,
        workerMs: (JSON.parse(coldText) as Answer).ms,
        sandboxOpenMs,
        duckMs: coldDuck,
        workersBefore,
        workersAfter,
      });
      const box = sandbox;
      await ownPool.query(source, QUERIES[0].sql, QUERIES[0].limit);

      // Fixed costs, with a statement that reads nothing: the node over
      // HTTP, its handler without HTTP, the pool (IPC + worker), runQuery in
      // this process, and the route's own work before the pool (find the
      // version, check every part: store.version + sqlSource).
      const trivial = "SELECT 42";
      const trivialBody = bodyOf(trivial, 200);
      const fixedFns = [
        () => postQuery(url, trivialBody),
        async () => {
          const req = new Request(url, {
            method: "POST",
            headers: { host, "content-type": "application/json" },
            body: trivialBody,
          });
          const res = await serving.node.handler(req);
          const text = await res.text();
          if (res.status !== 200) throw new Error(`handler ${l.slug}: ${res.status} ${text}`);
        },
        () => ownPool.query(source, trivial, 200),
        () => runQuery(box.connection, trivial, 200, scrub),
        async () => {
          const v = await store.version(l.slug, 1);
          if (!v) throw new Error(`${l.slug} v1 went away`);
          return await sqlSource(realRoot, v);
        },
      ];
      await interleaved(fixedFns, { maxRuns: 10, maxMs: 500 });
      const f = await interleaved(fixedFns, FIXED);
      fixed.push({
        layout: l.label,
        rounds: f[0].length,
        nodeMs: median(f[0]),
        handlerMs: median(f[1]),
        poolMs: median(f[2]),
        runQueryMs: median(f[3]),
        prepMs: median(f[4]),
      });

      const fns: (() => Promise<unknown>)[] = [];
      const texts: string[][] = [];
      for (const q of QUERIES) {
        const body = bodyOf(q.sql, q.limit);
        const seen: string[] = [];
        texts.push(seen);
        const duckQuery = async () => (await reference.runAndReadAll(q.sql)).getRows();

        // Both must give the same rows.
        const want = await duckQuery();
        const answer = JSON.parse(await postQuery(url, body)) as Answer;
        checkRows(answer.rows, want, `node ${l.slug} ${q.name}`);
        if (answer.truncated) throw new Error(`node ${l.slug} ${q.name}: truncated at ${q.limit} rows`);

        // In CALLS order: the node over HTTP (answers kept for the worker's
        // `ms`); the reference; then where the node's time goes: the pool
        // without HTTP or routing (IPC + worker), the worker's runQuery in
        // this process, the prepare step runQuery starts with, alone, and the
        // locked-down sandbox's DuckDB alone (runAndReadAll, as the reference).
        fns.push(
          async () => seen.push(await postQuery(url, body)),
          duckQuery,
          () => ownPool.query(source, q.sql, q.limit),
          () => runQuery(box.connection, q.sql, q.limit, scrub),
          async () => (await box.connection.prepare(q.sql)).destroySync(),
          async () => (await box.connection.runAndReadAll(q.sql)).getRows(),
        );
      }
      await interleaved(fns, WARMUP);
      for (const seen of texts) seen.length = 0;
      const pidsBefore = serving.node.sqlPids().join(",");
      const samples = await interleaved(fns, LATENCY);
      const pidsAfter = serving.node.sqlPids().join(",");
      if (pidsBefore !== pidsAfter) {
        console.log(`  note: the node's SQL workers changed (${pidsBefore} -> ${pidsAfter})`);
      }
      for (let qi = 0; qi < QUERIES.length; qi++) {
        const [node, duckSamples, poolSamples, ran, prepared, sandboxSamples] = CALLS.map((_, c) =>
          samples[qi * CALLS.length + c]
        );
        const workerMs = texts[qi].map((t) => (JSON.parse(t) as Answer).ms);
        const r: Row = {
          layout: l.label,
          query: QUERIES[qi].name,
          rounds: node.length,
          nodeMs: median(node),
          nodeP90: percentile(node, 90),
          duckMs: median(duckSamples),
          duckP90: percentile(duckSamples, 90),
          poolMs: median(poolSamples),
          workerMs: median(workerMs),
          workerMean: workerMs.reduce((a, b) => a + b, 0) / workerMs.length,
          runQueryMs: median(ran),
          prepareMs: median(prepared),
          sandboxMs: median(sandboxSamples),
        };
        rows.push(r);
        console.log(
          `  ${l.label} ${r.query}: node ${fmtMs(r.nodeMs)} ms, duckdb ${fmtMs(r.duckMs)} ms (${r.rounds} rounds)`,
        );
      }
    }
  } finally {
    if (sandbox) closeSandbox(sandbox);
    conn?.closeSync();
    duck?.closeSync();
    await pool?.close();
    await serving.shutdown();
    await rm(temp, { recursive: true, force: true });
  }
  report(rows, fixed, colds);
  await nodeMemory(root);
}

/** Rounds of every query on every layout for the memory of a node in its own process. */
const MEMORY_ROUNDS = 5;
/** Target (issue 17, item 5): the node and its SQL workers under these queries, at most this many MiB. */
const MEMORY_TARGET_MIB = 600;

/**
 * The peak memory of a node alone under the benchmark's queries: `svc serve`
 * in a process of its own (default settings) over the same store, every
 * query on both layouts `MEMORY_ROUNDS` times, then the peak resident size of
 * the node and of each SQL worker, added up (their peaks need not coincide,
 * so the sum is an upper bound). The in-process run above cannot tell, since
 * it holds the reference DuckDB and a pool of its own beside the node.
 */
async function nodeMemory(root: string): Promise<void> {
  const node = await startServe(["--store", root, "--quiet", "--read-only"]);
  try {
    for (let round = 0; round < MEMORY_ROUNDS; round++) {
      for (const l of LAYOUTS) {
        for (const q of QUERIES) await postQuery(`${node.url}/projects/${l.slug}/query`, bodyOf(q.sql, q.limit));
      }
    }
    const mib = (bytes: number) => bytes / 1024 ** 2;
    const peak = mib(await processTreeRss(node.child.pid, "VmHWM"));
    const now = mib(await processTreeRss(node.child.pid));
    console.log(
      `\nA node in its own process (svc serve, defaults), ${MEMORY_ROUNDS} rounds of every query on both layouts: ` +
        `${now.toFixed(0)} MiB now with its SQL workers; peaks added up ${peak.toFixed(0)} MiB`,
    );
    console.log(
      verdict(peak <= MEMORY_TARGET_MIB, `the node's peak under SQL: ${peak.toFixed(0)} MiB <= ${MEMORY_TARGET_MIB}`),
    );
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
  }
}

function report(rows: readonly Row[], fixed: readonly Fixed[], colds: readonly Cold[]): void {
  console.log(
    "\nPOST /projects/{slug}/query over 1M records: node over HTTP vs native DuckDB in-process (same run, warm)\n",
  );
  printTable(
    ["layout", "query", "node median ms", "node p90 ms", "duckdb median ms", "duckdb p90 ms", "node/duckdb"],
    rows.map((r) => [
      r.layout,
      r.query,
      fmtMs(r.nodeMs),
      fmtMs(r.nodeP90),
      fmtMs(r.duckMs),
      fmtMs(r.duckP90),
      fmtRatio(r.nodeMs, r.duckMs),
    ]),
  );

  console.log("\nWhere the node's time goes (medians, ms; interleaved with the above)\n");
  printTable(
    [
      "layout",
      "query",
      "HTTP round trip",
      "pool.query",
      "worker ms (mean)",
      "runQuery",
      "its prepare",
      "sandbox DuckDB",
    ],
    rows.map((r) => [
      r.layout,
      r.query,
      fmtMs(r.nodeMs),
      fmtMs(r.poolMs),
      `${r.workerMs.toFixed(0)} (${r.workerMean.toFixed(1)})`,
      fmtMs(r.runQueryMs),
      fmtMs(r.prepareMs),
      fmtMs(r.sandboxMs),
    ]),
  );
  console.log(
    "\n  pool.query: a one-worker pool of the node's code, called without HTTP or routing (IPC + worker);\n" +
      "  worker ms: the `ms` of the node's answers (whole ms, timed in the worker: sandbox lookup + runQuery);\n" +
      "  runQuery: the worker's runQuery on a sandbox in this process (no IPC);\n" +
      "  its prepare: runQuery's prepare alone, on the same sandbox;\n" +
      "  sandbox DuckDB: the same sandbox, runAndReadAll + getRows, as the reference runs.",
  );

  console.log("\nThe node's time over DuckDB's own, by step (differences of the medians above, ms)\n");
  printTable(
    ["layout", "query", "HTTP + route", "IPC + process", "prepare", "rest of runQuery", "sandbox - duckdb", "total"],
    rows.map((r) => [
      r.layout,
      r.query,
      fmtMs(r.nodeMs - r.poolMs),
      fmtMs(r.poolMs - r.runQueryMs),
      fmtMs(r.prepareMs),
      fmtMs(r.runQueryMs - r.prepareMs - r.sandboxMs),
      fmtMs(r.sandboxMs - r.duckMs),
      fmtMs(r.nodeMs - r.duckMs),
    ]),
  );

  console.log("\nFixed costs per request, with `SELECT 42` (medians, ms)\n");
  printTable(
    ["layout", "HTTP round trip", "handler (no HTTP)", "pool.query", "runQuery", "route prep", "HTTP", "route", "IPC"],
    fixed.map((f) => [
      f.layout,
      fmtMs(f.nodeMs),
      fmtMs(f.handlerMs),
      fmtMs(f.poolMs),
      fmtMs(f.runQueryMs),
      fmtMs(f.prepMs),
      fmtMs(f.nodeMs - f.handlerMs),
      fmtMs(f.handlerMs - f.poolMs),
      fmtMs(f.poolMs - f.runQueryMs),
    ]),
  );
  console.log(
    "\n  route prep: the handler's store.version + sqlSource (lstat + realpath of every part) alone;\n" +
      "  HTTP = round trip - handler; route = handler - pool.query; IPC = pool.query - runQuery.",
  );

  console.log("\nCold: the first query on each layout (information, not a target)\n");
  printTable(
    [
      "layout",
      "node first query ms",
      "its worker ms",
      "SQL workers before/after",
      "sandbox open ms",
      "duckdb first ms",
    ],
    colds.map((c) => [
      c.layout,
      fmtMs(c.nodeMs),
      String(c.workerMs),
      `${c.workersBefore}/${c.workersAfter}`,
      fmtMs(c.sandboxOpenMs),
      fmtMs(c.duckMs),
    ]),
  );

  console.log(`\nTargets (benchmarks inform, they do not gate)\n`);
  for (const r of rows) {
    const ratio = r.nodeMs / r.duckMs;
    console.log(
      verdict(
        ratio <= ENGINE_TARGET,
        `${r.layout} ${r.query}: node/duckdb ${ratio.toFixed(2)}x <= ${ENGINE_TARGET.toFixed(1)}x`,
      ),
    );
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "sql_queries",
  description: "POST /query (count, group-by, LIKE over 1M records; 1 part vs 200) over HTTP vs native DuckDB",
  run,
};
