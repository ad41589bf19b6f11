/**
 * Benchmark `pull`: `pull()` of a ~1 GB version in 16 parts from a node over
 * loopback into an empty store (parts streamed, sized and hashed, renamed),
 * beside `curl` fetching the same part URLs (4 at once, `--parallel`, to
 * files, then `sync` of them: the same durability) in the same run. Target:
 * at least 0.85x of curl + sync's throughput, checksums included.
 *
 * @module
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { Client } from "../../src/client/client.ts";
import { pull } from "../../src/local/pull.ts";
import { ensureBenchStore } from "./_bench_store.ts";
import { benchDataDir, type Benchmark, median, printTable, runTool, verdict } from "./_util.ts";

/** Parts of the version. */
const PARTS = 16;
/** Rows per part (about 64 MB of poorly compressible text each). */
const ROWS = 900_000;
/** Timed runs of each side. */
const RUNS = 5;
/** Target: pull's throughput at least this share of curl's followed by `sync` (the same durability). */
const TARGET = 0.85;

function partSql(i: number): string {
  return `SELECT (${i * ROWS} + range)::BIGINT AS id, sha256((${i * ROWS} + range)::VARCHAR) || ` +
    `sha256((${i * ROWS} + range + 1)::VARCHAR) AS payload FROM range(${ROWS})`;
}

/** The store of the ~1 GB version `big` (written once, then reused), shared with the follow benchmark. */
export async function pullBenchStore(): Promise<string> {
  const { root } = await ensureBenchStore("pull", { generator: 1, parts: PARTS, rows: ROWS }, [{
    slug: "big",
    title: "Bench pull",
    fields: [{ name: "id", type: "integer" }, { name: "payload", type: "string" }],
    parts: Array.from({ length: PARTS }, (_, i) => ({ sql: partSql(i) })),
  }]);
  return root;
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const root = await pullBenchStore();
  // The node runs in a process of its own, as an origin would: pull and curl then share nothing with it.
  const serving = await startServe(["--store", root, "--quiet"]);
  const scratch = benchDataDir(".pull-run");
  const client = new Client({ baseUrl: serving.url, apiKey: "bench" });
  try {
    const manifest = await client.manifest("big");
    const bytes = manifest.parts.reduce((a, p) => a + p.bytes, 0);
    const config = manifest.parts.map((p, i) => `url = "${p.url}"\noutput = "${join(scratch, "curl", `${i}.parquet`)}"`)
      .join("\n");
    const pullTimes: number[] = [];
    const curlTimes: number[] = [];
    const curlSyncTimes: number[] = [];
    const curlRun = async () => {
      await mkdir(join(scratch, "curl"), { recursive: true });
      await writeFile(join(scratch, "curl.cfg"), config);
      const t0 = performance.now();
      await runTool("curl", [
        "--silent",
        "--fail",
        "--parallel",
        "--parallel-max",
        "4",
        "--config",
        join(scratch, "curl.cfg"),
      ]);
      const fetched = performance.now() - t0;
      // The same durability as pull, which flushes each part before its manifest: curl's files flushed to disk.
      await runTool("sync", manifest.parts.map((_, i) => join(scratch, "curl", `${i}.parquet`)));
      return [fetched, performance.now() - t0];
    };
    const pullRun = async () => {
      const t0 = performance.now();
      const result = await pull(client, "big", { store: join(scratch, "store"), workers: 4 });
      if (result.downloaded !== PARTS) throw new Error(`pulled ${result.downloaded} parts, not ${PARTS}`);
      return performance.now() - t0;
    };
    // A round untimed first (the page cache and the node warm up), then rounds that alternate which side goes
    // first, so that neither always inherits the other's writeback.
    for (let i = -1; i < RUNS; i++) {
      await rm(scratch, { recursive: true, force: true });
      let pulled: number;
      let curled: number[];
      if (i % 2 === 0) {
        curled = await curlRun();
        pulled = await pullRun();
      } else {
        pulled = await pullRun();
        curled = await curlRun();
      }
      if (i < 0) continue;
      pullTimes.push(pulled);
      curlTimes.push(curled[0]);
      curlSyncTimes.push(curled[1]);
    }
    const mibs = (ms: number) => bytes / 1048576 / (ms / 1000);
    const ratio = mibs(median(pullTimes)) / mibs(median(curlTimes));
    console.log(
      `\nA version of ${PARTS} parts, ${(bytes / 1048576).toFixed(0)} MiB, over loopback; median of ${RUNS}\n`,
    );
    printTable(["what", "median s", "MiB/s"], [
      [
        "svc pull (4 workers, size + SHA-256 checked, renamed)",
        (median(pullTimes) / 1000).toFixed(2),
        mibs(median(pullTimes)).toFixed(0),
      ],
      ["curl --parallel-max 4 to files", (median(curlTimes) / 1000).toFixed(2), mibs(median(curlTimes)).toFixed(0)],
      [
        "curl, then sync of its files (same durability)",
        (median(curlSyncTimes) / 1000).toFixed(2),
        mibs(median(curlSyncTimes)).toFixed(0),
      ],
    ]);
    const durable = mibs(median(pullTimes)) / mibs(median(curlSyncTimes));
    console.log(`\ninformation: pull at ${ratio.toFixed(2)}x of curl's throughput without a flush to disk`);
    console.log(
      `\n${verdict(durable >= TARGET, `pull at ${durable.toFixed(2)}x of curl + sync (target >= ${TARGET}x)`)}`,
    );
  } finally {
    serving.child.kill("SIGTERM");
    await serving.status;
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "pull",
  description: "pull of a ~1 GB version over loopback vs curl fetching the same parts",
  run,
};
