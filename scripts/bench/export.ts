/**
 * Benchmark `export`: `GET /projects/{slug}/export` of a whole
 * 1,000,000-record version over HTTP (first download, built from the parts,
 * and a later one, served from the kept file), beside two references
 * measured in the same run: DuckDB's own `COPY ... (FORMAT json, COMPRESSION
 * gzip)` of the same parts, and `gzip -1` of the same JSON lines.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { serveNode } from "../../server.ts";
import { type Benchmark, fmtMs, fmtRatio, median, printTable, runTool, verdict } from "./_util.ts";

/** Targets (issue 17, item 4): the first download's throughput against `gzip -1`'s, and its size. */
const THROUGHPUT_TARGET = 0.6;
const SIZE_TARGET = 1.05;
import { ensureStore, PROJECTS } from "./data_pages.ts";

/** Timed runs of each side. */
const RUNS = 3;

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

function mibPerS(bytes: number, ms: number): string {
  return (bytes / 1048576 / (ms / 1000)).toFixed(1);
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root, parts } = await ensureStore();
  const slug = PROJECTS[0].slug;
  const list = parts.get(slug)!.map((p) => `'${p.replaceAll("'", "''")}'`).join(", ");
  const scratch = await mkdtemp(join(tmpdir(), "svc-bench-export-"));
  const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  const db = await DuckDBInstance.create(":memory:", { threads: "2" });
  const c = await db.connect();
  try {
    const url = `${serving.url}/projects/${slug}/export?version=1`;
    const exports = join(root, slug, "exports");
    const first = await timed(async () => {
      await rm(exports, { recursive: true, force: true });
      await download(url);
    });
    const gz = await download(url);
    const kept = await timed(() => download(url));
    const lines = gunzipSync(gz);
    const linesFile = join(scratch, "records.jsonl");
    await writeFile(linesFile, lines);
    const count = lines.reduce((n, b) => (b === 10 ? n + 1 : n), 0);
    if (count !== 1_000_000) throw new Error(`expected 1,000,000 lines, got ${count}`);
    const copy = await timed(() =>
      c.run(
        `COPY (SELECT * FROM read_parquet([${list}])) TO '${
          join(scratch, "duckdb.jsonl.gz")
        }' (FORMAT json, COMPRESSION gzip)`,
      )
    );
    const copySize = (await stat(join(scratch, "duckdb.jsonl.gz"))).size;
    const gzip1 = await timed(() => runTool("gzip", ["-1", "-c", linesFile], join(scratch, "gzip1.gz")));
    const gzip1Size = (await stat(join(scratch, "gzip1.gz"))).size;

    const jsonBytes = lines.byteLength;
    const m = { first: median(first), kept: median(kept), copy: median(copy), gzip: median(gzip1) };
    console.log(
      `\nExport of ${slug} v1: 1,000,000 records, ${(jsonBytes / 1048576).toFixed(1)} MiB of JSON lines; ` +
        `median of ${RUNS} runs each\n`,
    );
    printTable(["what", "median ms", "MiB/s of JSON", "gzip size MiB", "vs DuckDB COPY", "vs gzip -1"], [
      [
        "node, first download (built from the parts)",
        fmtMs(m.first),
        mibPerS(jsonBytes, m.first),
        (gz.byteLength / 1048576).toFixed(1),
        fmtRatio(m.first, m.copy),
        fmtRatio(m.first, m.gzip),
      ],
      [
        "node, later download (the kept file)",
        fmtMs(m.kept),
        mibPerS(jsonBytes, m.kept),
        (gz.byteLength / 1048576).toFixed(1),
        fmtRatio(m.kept, m.copy),
        fmtRatio(m.kept, m.gzip),
      ],
      [
        "DuckDB COPY (FORMAT json, COMPRESSION gzip)",
        fmtMs(m.copy),
        mibPerS(jsonBytes, m.copy),
        (copySize / 1048576).toFixed(1),
        "1.00x",
        fmtRatio(m.copy, m.gzip),
      ],
      [
        "gzip -1 of the same JSON lines",
        fmtMs(m.gzip),
        mibPerS(jsonBytes, m.gzip),
        (gzip1Size / 1048576).toFixed(1),
        fmtRatio(m.gzip, m.copy),
        "1.00x",
      ],
    ]);
    console.log("\n(ratios are times: below 1.00x the node is faster than the reference)\n");
    const throughput = m.gzip / m.first;
    const size = gz.byteLength / gzip1Size;
    console.log(verdict(
      throughput >= THROUGHPUT_TARGET,
      `first download at ${throughput.toFixed(2)}x of gzip -1's throughput (>= ${THROUGHPUT_TARGET}x)`,
    ));
    console.log(verdict(size <= SIZE_TARGET, `export ${size.toFixed(2)}x the size of gzip -1's (<= ${SIZE_TARGET}x)`));
  } finally {
    c.closeSync();
    db.closeSync();
    await serving.shutdown();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "export",
  description: "GET /export of 1M records (first and kept) vs DuckDB COPY json gzip and gzip -1",
  run,
};
