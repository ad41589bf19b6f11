/**
 * Benchmark `spark_sharing`: Apache Spark (pyspark 4.0.1 with the Delta
 * Sharing Spark connector, which it installs first with
 * `scripts/readers/prepare.sh spark` from PyPI and Maven Central; it stops
 * saying why when they cannot be had)
 * reading a table of 10 million records in 40 parts through a node's Delta
 * Sharing share, its tasks fetching the parts through the pre-signed URLs
 * at once, against the same Spark reading the same Parquet files from local
 * disk, in the same run: the reads alternate, each decodes every column, the
 * first of each way is a warm-up.
 *
 * Target: Delta Sharing at least 0.8x the speed of local disk (local time
 * over sharing time).
 *
 * @module
 */
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { citySql } from "../../tests/support/store_fixture.ts";
import { installReaders, readers, runReader, shareProfile } from "../../tests/support/readers.ts";
import { runCli } from "../../tests/support/cli_process.ts";
import { ensureBenchStore } from "./_bench_store.ts";
import { benchDataDir, type Benchmark, median, printTable, verdict } from "./_util.ts";

/** Records of the table. */
export const RECORDS = 10_000_000;
/** Its parts. */
export const PARTS = 40;
/** Spark's tasks at once. */
export const TASKS = 4;
/** Timed reads of each way after the warm-up. */
export const REPEATS = 5;

const TARGET = 0.8;
const TOKEN = "bench-token-0123456789abcdef";

interface Read {
  seconds: number[];
  partitions: number;
  count: number;
  sum_id: number;
  sum_score: number;
  name_bytes: number;
}

async function run(): Promise<void> {
  await installReaders("spark");
  const found = await readers("spark");
  console.log(`readers: ${JSON.stringify(found.packages)}; ${found.spark?.connector}`);
  const per = RECORDS / PARTS;
  const store = await ensureBenchStore("spark_sharing", { records: RECORDS, parts: PARTS, v: 1 }, [{
    slug: "events",
    title: "Ten million records",
    fields: [
      { name: "id", type: "integer" },
      { name: "name", type: "string" },
      { name: "population", type: "integer" },
      { name: "score", type: "number" },
      { name: "note", type: "string", required: false },
    ],
    parts: Array.from({ length: PARTS }, (_, i) => ({ sql: citySql(i * per, per) })),
  }]);
  const files = store.parts.get("events")!;
  const serving = await serveNode({ store: store.root, host: "127.0.0.1", port: 0, token: TOKEN, log: null });
  const recipient = `bench-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const profile = await shareProfile(store.root, recipient, benchDataDir(`${recipient}.share`), serving.url);
    const t0 = performance.now();
    const result = await runReader<{ sharing: Read; local: Read }>("parallel_read.py", {
      profile,
      table: "svc.default.events",
      files,
      cores: TASKS,
      repeats: REPEATS,
    }, { timeoutMs: 1_800_000, env: { SVC_READER_SPARK_MEMORY: "2g" }, spark: true });
    console.log(`Spark ran ${((performance.now() - t0) / 1000).toFixed(1)} s (start-up and warm-ups included)`);
    const { sharing, local } = result.answer;
    for (const key of ["count", "sum_id", "name_bytes"] as const) {
      if (sharing[key] !== local[key]) throw new Error(`the two reads differ in ${key}: ${sharing[key]} ${local[key]}`);
    }
    if (sharing.count !== RECORDS) throw new Error(`read ${sharing.count} records, not ${RECORDS}`);
    const s = median(sharing.seconds);
    const l = median(local.seconds);
    const ratio = l / s;
    printTable(["read", "tasks", "median", "runs", "records/s"], [
      [
        "Delta Sharing (pre-signed URLs)",
        String(sharing.partitions),
        `${s.toFixed(2)} s`,
        sharing.seconds.map((x) => x.toFixed(2)).join(" "),
        `${(RECORDS / s / 1e6).toFixed(1)} M`,
      ],
      [
        "local Parquet files",
        String(local.partitions),
        `${l.toFixed(2)} s`,
        local.seconds.map((x) => x.toFixed(2)).join(" "),
        `${(RECORDS / l / 1e6).toFixed(1)} M`,
      ],
    ]);
    console.log(
      verdict(
        ratio >= TARGET,
        `Delta Sharing ${
          ratio.toFixed(2)
        }x the speed of local disk (target >= ${TARGET}): ${RECORDS} records in ${PARTS} parts, ${TASKS} tasks`,
      ),
    );
  } finally {
    await runCli(["share", "remove", recipient, "--store", store.root]);
    await Deno.remove(join(benchDataDir(), `${recipient}.share`)).catch(() => {});
    await serving.shutdown();
  }
}

/** The benchmark. */
export const benchmark: Benchmark = {
  name: "spark_sharing",
  description: "Spark reading 10 million records through Delta Sharing's pre-signed URLs against local Parquet files",
  run,
};
