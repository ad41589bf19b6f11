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
 * Five views: every record and a filter of 6,175 records asked again and
 * again (the node keeps what a view of a version counts, so after the first
 * request its facets and total come from memory); a filter every record
 * passes (`id__gte=-k`), which the parts' footers show (ids from 0), so the
 * node answers it as the view of every record; and, counted each time (a
 * value of their own each round), filters all but a few dozen records pass
 * (`id__gte=1+k`) and filters of 5,025 to 7,975 records (`country__exact`).
 *
 * Beside them, Datasette (see `_datasette.ts`: one SQLite file of the same
 * records, `country` indexed, standing beside both layouts) answers the same
 * view with its own facets and count
 * (`/bench/records.json?_facet=country&_facet=note&_size=10&<filter>`) in
 * the same rounds; its counts are checked against the node's first (the
 * total, and each facet's values and counts as far as both lists go), so the
 * two cannot be counting different records. No target: information.
 *
 * Targets (issue 47): the node's facets at most the node's SQL for the same
 * counts (<= 1.0x) and within 1.1x of DuckDB's.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { startServe } from "../../tests/support/cli_process.ts";
import { sqlString } from "./_bench_store.ts";
import { openDatasette } from "./_datasette.ts";
import { type Benchmark, fmtMs, interleaved, median, printTable, verdict } from "./_util.ts";
import { ensureStore, LAYOUTS } from "./sql_queries.ts";

/** Target: the node's facets at most this many times the node's SQL route for the same counts. */
export const SQL_TARGET = 1.0;
/** Target: the node's facets at most this many times DuckDB's for the same counts. */
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
    name: "all pass a filter, as footers show",
    at: (k: number) => ({ query: `&id__gte=${-k}`, where: `WHERE id >= ${-k}` }),
  },
  {
    name: "all but a few pass, counted each time",
    at: (k: number) => ({ query: `&id__gte=${1 + k}`, where: `WHERE id >= ${1 + k}` }),
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

/** A facet's values as each side names them. */
type Counts = { value: unknown; count: number }[];

/**
 * Throws unless Datasette's answer counts what the node's does: the same
 * total, and for each facet the same values with the same counts, in the
 * same order, as far as both lists go (Datasette leaves null out; the node
 * counts it among the 30).
 */
function checkSame(nodeText: string, dsText: string, what: string): void {
  const mine = JSON.parse(nodeText) as { total: number; facets: { column: string; values: Counts }[] };
  const theirs = JSON.parse(dsText) as {
    filtered_table_rows_count: number;
    facet_results: Record<string, { results: Counts }>;
  };
  const fail = (why: string) => {
    throw new Error(`${what}: Datasette counts other records than the node (${why})`);
  };
  if (mine.total !== theirs.filtered_table_rows_count) fail(`${theirs.filtered_table_rows_count} of ${mine.total}`);
  const compared: string[] = [];
  for (const facet of mine.facets) {
    const a = facet.values.filter((v) => v.value !== null);
    const b = theirs.facet_results[facet.column]?.results ?? [];
    const n = Math.min(a.length, b.length);
    if (n === 0 && a.length + b.length > 0) fail(`${facet.column}: ${a.length} values, Datasette ${b.length}`);
    for (let i = 0; i < n; i++) {
      if (a[i].value !== b[i].value || a[i].count !== b[i].count) {
        fail(`${facet.column} #${i}: ${JSON.stringify(a[i])} against ${JSON.stringify(b[i])}`);
      }
    }
    compared.push(`${n} ${facet.column} values`);
  }
  console.log(`  ${what}: total ${mine.total} and ${compared.join(", ")}, the same from Datasette`);
}

/** Where one layout's view is asked. */
interface Target {
  /** The layout's name. */
  label: string;
  /** The node's project URL. */
  base: string;
  /** DuckDB's `read_parquet([...])` of the layout's parts. */
  list: string;
  /** DuckDB in-process. */
  c: DuckDBConnection;
  /** Datasette's table URL, or null without Datasette. */
  datasette: string | null;
}

/** One view's figures: first ms, then the medians and paired ratios of the node, its SQL, DuckDB and Datasette. */
async function measureView(t: Target, view: (typeof VIEWS)[number]): Promise<number[]> {
  // Each round's calls count the same view; the node's call goes first and moves to the next.
  let round = 0;
  let at = view.at(round);
  const page = () => {
    at = view.at(++round);
    return answered(fetch(`${t.base}/data?facet=country&facet=note&limit=10${at.query}`));
  };
  const headers = { "content-type": "application/json" };
  const sql = () =>
    answered(fetch(`${t.base}/query`, {
      method: "POST",
      body: JSON.stringify({ sql: countsSql("records", at.where), limit: 1000 }),
      headers,
    }));
  // Like for like: the node's answer is a page of ten records too.
  const duckdb = async () => {
    const records = (await t.c.runAndReadAll(`SELECT * FROM ${t.list} ${at.where} LIMIT 10`)).getRowObjectsJson();
    return JSON.stringify([records, (await t.c.runAndReadAll(countsSql(t.list, at.where))).getRowObjectsJson()]);
  };
  const ds = t.datasette;
  // Datasette's own facets (its 30 most frequent values of each) and count, beside a page of ten.
  const datasette = () => answered(fetch(`${ds}.json?_facet=country&_facet=note&_size=10${at.query}`));
  const calls = ds ? [page, sql, duckdb, datasette] : [page, sql, duckdb];
  const first = performance.now();
  const text = await page();
  const firstMs = performance.now() - first;
  if (ds) checkSame(text, await datasette(), `${t.label}, ${view.name}, ${at.query.slice(1) || "no filter"}`);
  await interleaved(calls, WARMUP);
  const [nodeMs, sqlMs, duckMs, dsMs = []] = await interleaved(calls, ROUNDS);
  return [
    firstMs,
    ...[nodeMs, sqlMs, duckMs, dsMs].map((ms) => median(ms)),
    ...[sqlMs, duckMs, dsMs].map((ms) => ms.length > 0 ? paired(nodeMs, ms) : NaN),
  ];
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  // SQLite has no parts: one file of the same records stands beside both layouts.
  const ds = await openDatasette(parts.get(LAYOUTS[0].slug)!);
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
        const [firstMs, nodeMs, sqlMs, duckMs, dsMs, bySql, byDuck, byDs] = await measureView(
          { label: layout.label, base, list, c, datasette: ds?.table ?? null },
          view,
        );
        const x = (r: number) => Number.isFinite(r) ? `${r.toFixed(2)}x` : "-";
        const times = [firstMs, nodeMs, sqlMs, duckMs, dsMs].map(fmtMs);
        rows.push([layout.label, view.name, ...times, x(bySql), x(byDuck), x(byDs)]);
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
    await ds?.stop();
  }
  console.log(
    `\nTwo facets and the total: node page vs node SQL route vs DuckDB in-process vs Datasette, interleaved\n`,
  );
  printTable(
    [
      "layout",
      "view",
      "first ms",
      "node ms",
      "SQL route ms",
      "DuckDB ms",
      "Datasette ms",
      "node/SQL",
      "node/DuckDB",
      "node/Datasette",
    ],
    rows,
  );
  console.log(
    "\n(ratios: the median of each round's own ratio; Datasette: one SQLite file for both layouts, no target)\n",
  );
  for (const v of verdicts) console.log(v);
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "facets",
  description: "a page with two facets and its total vs the node's SQL and DuckDB for the same counts",
  run,
};
