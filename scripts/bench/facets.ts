/**
 * Benchmark `facets`: a data page with two facets and the view's total
 * (`GET /projects/{slug}/data?facet=country&facet=note&limit=10`, a node in
 * its own process, over HTTP) against the same counts asked of the node's own
 * SQL route (`POST /projects/{slug}/query`, through its SQL workers) and of
 * DuckDB in-process (2 threads, the metadata cache on, the answer made JSON,
 * with the same page of ten records beside the counts),
 * in interleaved rounds of the same run, on 1,000,000 records in one part and
 * in 200. The counts are the same everywhere: each column's 31 most frequent
 * values (ties by value) and the total, in one scan (`GROUPING SETS`).
 *
 * Four views: every record and a filter of 6,175 records asked again and
 * again (the node keeps what a view of a version counts, so after the first
 * request its facets and total come from memory), and, counted each time (a
 * value of their own each round), a filter every record passes (`id__gte`)
 * and filters of 5,025 to 7,975 records (`country__exact`).
 *
 * Targets (issue 47): the node's facets at most the node's SQL for the same
 * counts (<= 1.0x) and within 1.1x of DuckDB's.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { startServe } from "../../tests/support/cli_process.ts";
import { sqlString } from "./_bench_store.ts";
import { type Benchmark, fmtMs, interleaved, median, printTable, verdict } from "./_util.ts";
import { ensureStore, LAYOUTS } from "./sql_queries.ts";

/** Targets: against the node's SQL route, and against DuckDB. */
export const SQL_TARGET = 1.0;
export const DUCKDB_TARGET = 1.1;
const WARMUP = { maxRuns: 3, maxMs: 5000, minRuns: 2 };
const ROUNDS = { maxRuns: 40, maxMs: 25_000, minRuns: 10 };

/**
 * The views: the node's query string and the SQL WHERE clause in round `k`.
 * What a view counts is kept once counted, so the views to be counted each
 * time take another value each round.
 */
const VIEWS = [
  { name: "every record (kept)", at: (_k: number) => ({ query: "", where: "" }) },
  {
    name: "all pass a filter, counted each time",
    at: (k: number) => ({ query: `&id__gte=${-k}`, where: `WHERE id >= ${-k}` }),
  },
  {
    name: "5,025-7,975 records, counted each time",
    at: (k: number) => {
      const country = `country-${100 + (k % 60)}`;
      return { query: `&country__exact=${country}`, where: `WHERE country = '${country}'` };
    },
  },
  {
    name: "6,175 records (kept)",
    at: (_k: number) => ({ query: "&country__exact=country-123", where: "WHERE country = 'country-123'" }),
  },
] as const;

/** The counts in one scan over `from`: the 31 most frequent countries and notes, and the total. */
function countsSql(from: string, where: string): string {
  const order = `country ASC NULLS LAST, note ASC NULLS LAST`;
  return `SELECT GROUPING_ID(country, note) AS g, country, note, count(*)::BIGINT AS n FROM ${from} ${where} ` +
    `GROUP BY GROUPING SETS ((country), (note), ()) ` +
    `QUALIFY row_number() OVER (PARTITION BY g ORDER BY n DESC, ${order}) <= 31 ORDER BY g, n DESC, ${order}`;
}

async function answered(res: Promise<Response>): Promise<string> {
  const r = await res;
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${r.url}: ${r.status} ${text.slice(0, 300)}`);
  return text;
}

/** The median of each round's own ratio. */
function paired(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]));
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const node = await startServe(["--store", root, "--quiet", "--read-only"]);
  const duck = await DuckDBInstance.create(":memory:", { threads: "2" });
  const c = await duck.connect();
  await c.run("SET parquet_metadata_cache = true");
  const rows: string[][] = [];
  const verdicts: string[] = [];
  try {
    for (const layout of LAYOUTS) {
      const base = `${node.url}/projects/${layout.slug}`;
      const list = `read_parquet([${parts.get(layout.slug)!.map(sqlString).join(", ")}])`;
      for (const view of VIEWS) {
        // Each round's three calls count the same view; the node's call goes first and moves to the next.
        let round = 0;
        let at = view.at(round);
        const page = () => {
          at = view.at(++round);
          return answered(fetch(`${base}/data?facet=country&facet=note&limit=10${at.query}`));
        };
        const headers = { "content-type": "application/json" };
        const sql = () =>
          answered(fetch(`${base}/query`, {
            method: "POST",
            body: JSON.stringify({ sql: countsSql("records", at.where), limit: 1000 }),
            headers,
          }));
        // Like for like: the node's answer is a page of ten records too.
        const duckdb = async () => {
          const records = (await c.runAndReadAll(`SELECT * FROM ${list} ${at.where} LIMIT 10`)).getRowObjectsJson();
          return JSON.stringify([records, (await c.runAndReadAll(countsSql(list, at.where))).getRowObjectsJson()]);
        };
        const first = performance.now();
        await page();
        const firstMs = performance.now() - first;
        await interleaved([page, sql, duckdb], WARMUP);
        const [nodeMs, sqlMs, duckMs] = await interleaved([page, sql, duckdb], ROUNDS);
        const [bySql, byDuck] = [paired(nodeMs, sqlMs), paired(nodeMs, duckMs)];
        rows.push([
          layout.label,
          view.name,
          fmtMs(firstMs),
          fmtMs(median(nodeMs)),
          fmtMs(median(sqlMs)),
          fmtMs(median(duckMs)),
          `${bySql.toFixed(2)}x`,
          `${byDuck.toFixed(2)}x`,
        ]);
        const what = `${layout.label}, ${view.name}`;
        verdicts.push(
          verdict(bySql <= SQL_TARGET, `${what}: facets ${bySql.toFixed(2)}x of the node's SQL (<= ${SQL_TARGET}x)`),
          verdict(byDuck <= DUCKDB_TARGET, `${what}: facets ${byDuck.toFixed(2)}x of DuckDB (<= ${DUCKDB_TARGET}x)`),
        );
      }
    }
  } finally {
    c.closeSync();
    duck.closeSync();
    node.child.kill("SIGTERM");
    await node.status;
  }
  console.log(`\nTwo facets and the total: node page vs node SQL route vs DuckDB in-process, interleaved\n`);
  printTable(
    ["layout", "view", "first ms", "node ms", "SQL route ms", "DuckDB ms", "node/SQL", "node/DuckDB"],
    rows,
  );
  console.log("\n(ratios: the median of each round's own ratio)\n");
  for (const v of verdicts) console.log(v);
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "facets",
  description: "a page with two facets and its total vs the node's SQL and DuckDB for the same counts",
  run,
};
