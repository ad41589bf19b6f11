/**
 * Benchmark `downloads`: a whole version and a filtered view of 1,000,000
 * records downloaded from a node (`svc serve` in its own process, `GET
 * /projects/{slug}/data?format=...`, read whole: by curl for a whole version,
 * by fetch for a view) as CSV,
 * JSON lines and Parquet, against DuckDB in-process (2 threads, as the
 * node's engine) writing the same records in the same format with `COPY ...
 * TO` a file, in interleaved rounds of the same run; and the node's own
 * export (`GET /projects/{slug}/export`, built from the parts each time:
 * gzip-compressed JSON lines) beside them, the path downloads are to match.
 * Two layouts of the same records: one part, and 200 parts.
 *
 * Targets (issue 47): every download within 1.5x of DuckDB's `COPY` to the
 * same format, and a whole version's JSON lines no slower than its export.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { sqlString } from "./_bench_store.ts";
import { type Benchmark, fmtMs, interleaved, median, printTable, runTool, verdict } from "./_util.ts";
import { ensureStore, LAYOUTS } from "./sql_queries.ts";

/** Target: a download at most this many times DuckDB's `COPY` to the same format. */
export const TARGET = 1.5;
/** The filtered view: 6,175 of the million records. */
const FILTER = { column: "country", value: "country-123" };
const WHOLE_ROUNDS = { maxRuns: 9, maxMs: 60_000, minRuns: 5 };
const VIEW_ROUNDS = { maxRuns: 40, maxMs: 20_000, minRuns: 10 };

/** The median of each round's own ratio: a round's two figures are taken moments apart, so a busy spell hits both. */
function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]));
}

/** The formats: the node's name, DuckDB's `COPY` options. */
const FORMATS = [
  { format: "csv", copy: "FORMAT csv" },
  { format: "jsonl", copy: "FORMAT json" },
  { format: "parquet", copy: "FORMAT parquet" },
] as const;

/**
 * Downloads `url` whole with curl into /dev/null (as a user would, its
 * client costing little beside the node); resolves with its bytes.
 */
async function download(url: string, file: string): Promise<number> {
  await runTool("curl", [
    "--fail",
    "--silent",
    "--show-error",
    "--output",
    "/dev/null",
    "--write-out",
    "%{size_download}",
    url,
  ], file);
  return Number(await readFile(file, "utf8"));
}

/** Downloads `url` whole with fetch, for small answers (no process to start); resolves with its bytes. */
async function fetched(url: string): Promise<number> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.arrayBuffer()).byteLength;
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const node = await startServe(["--store", root, "--quiet", "--read-only"]);
  const scratch = await mkdtemp(join(tmpdir(), "svc-bench-downloads-"));
  const duck = await DuckDBInstance.create(":memory:", { threads: "2" });
  const c = await duck.connect();
  await c.run("SET parquet_metadata_cache = true");
  const rows: string[][] = [];
  const verdicts: string[] = [];
  const record = (layout: string, what: string, nodeMs: number[], refName: string, refMs: number[], bytes: string) => {
    const ratio = pairedRatio(nodeMs, refMs);
    rows.push([layout, what, fmtMs(median(nodeMs)), refName, fmtMs(median(refMs)), `${ratio.toFixed(2)}x`, bytes]);
    return ratio;
  };
  try {
    for (const layout of LAYOUTS) {
      const base = `${node.url}/projects/${layout.slug}`;
      const from = `FROM read_parquet([${parts.get(layout.slug)!.map(sqlString).join(", ")}])`;
      const copy = (select: string, options: string) => async () => {
        const target = join(scratch, "copy");
        await c.run(`COPY (${select}) TO ${sqlString(target)} (${options})`);
        const size = (await stat(target)).size;
        await rm(target);
        return size;
      };
      const received = join(scratch, "received");
      const exportNode = () => download(`${base}/export?version=1`, received);
      for (const { format, copy: options } of FORMATS) {
        for (const view of [false, true]) {
          const query = view ? `&${FILTER.column}__exact=${FILTER.value}` : "";
          const where = view ? ` WHERE ${FILTER.column} = ${sqlString(FILTER.value)}` : "";
          const url = `${base}/data?format=${format}${query}`;
          const nodeCall = view ? () => fetched(url) : () => download(url, received);
          const refCall = copy(`SELECT * ${from}${where}`, options);
          const bounds = view ? VIEW_ROUNDS : WHOLE_ROUNDS;
          const bytes = [await nodeCall(), await refCall()];
          const [nodeMs, refMs] = await interleaved([nodeCall, refCall], bounds);
          const what = `${view ? "filtered view" : "whole version"}, ${format}`;
          const sizes = `${(bytes[0] / 1048576).toFixed(1)} / ${(bytes[1] / 1048576).toFixed(1)} MiB`;
          const ratio = record(layout.label, what, nodeMs, `COPY (${options})`, refMs, sizes);
          verdicts.push(
            verdict(ratio <= TARGET, `${layout.label}, ${what}: ${ratio.toFixed(2)}x of COPY (<= ${TARGET}x)`),
          );
          if (format === "jsonl" && !view) {
            // The export is built from the parts each time: a node with --read-only keeps no export file.
            const [lines, exported] = await interleaved([nodeCall, exportNode], WHOLE_ROUNDS);
            const against = record(
              layout.label,
              "whole version, jsonl",
              lines,
              "the node's export (gzip)",
              exported,
              "-",
            );
            verdicts.push(
              verdict(against <= 1, `${layout.label}, JSON lines ${against.toFixed(2)}x of the node's export (<= 1x)`),
            );
          }
        }
      }
    }
  } finally {
    c.closeSync();
    duck.closeSync();
    node.child.kill("SIGTERM");
    await node.status;
    await rm(scratch, { recursive: true, force: true });
  }
  console.log(`\nDownloads over HTTP from svc serve (its own process) vs DuckDB COPY in-process, interleaved\n`);
  printTable(["layout", "node", "median ms", "reference", "median ms", "node/ref (paired)", "bytes node / ref"], rows);
  console.log();
  for (const v of verdicts) console.log(v);
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "downloads",
  description: "CSV, JSON lines and Parquet downloads of 1M records and of a view vs DuckDB COPY, and vs the export",
  run,
};
