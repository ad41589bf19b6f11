/**
 * Benchmark `contribute`: 500-record contributions over HTTP into a local
 * project holding 10,000 records and into one holding 1,000,000, measured in
 * the same run, interleaved. Target: the 1M project's median within 1.5x of
 * the 10k project's (the gates cost in proportion to the batch, not to the
 * project).
 *
 * @module
 */
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { ensureBenchStore } from "./_bench_store.ts";
import { benchDataDir, type Benchmark, fmtMs, fmtRatio, median, percentile, printTable, verdict } from "./_util.ts";

/** The two projects: the same schema, different sizes. */
const SIZES = [
  { slug: "notes-10k", records: 10_000 },
  { slug: "notes-1m", records: 1_000_000 },
];
/** Records per contribution. */
const BATCH = 500;
/** Contributions per project after the warm-up. */
const ROUNDS = 20;
/** Target: the 1M project's median at most this many times the 10k project's. */
const TARGET = 1.5;

const FIELDS = [{ name: "id", type: "integer" }, { name: "text", type: "string" }, { name: "score", type: "number" }];

function recordSql(from: number, n: number): string {
  return `SELECT (${from} + i)::BIGINT AS id, 'note ' || (${from} + i) AS text, ((${from} + i) * 0.5)::DOUBLE AS score ` +
    `FROM range(${n}) r(i)`;
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const seed = await ensureBenchStore(
    "contribute",
    { generator: 1, sizes: SIZES },
    SIZES.map((s) => ({
      slug: s.slug,
      title: `Bench notes (${s.records} records)`,
      fields: FIELDS,
      parts: Array.from({ length: Math.max(1, s.records / 250_000) }, (_, i) => {
        const per = Math.min(s.records, 250_000);
        return { sql: recordSql(i * per, per), rowGroupSize: 10_240 };
      }),
    })),
  );
  // Contributions change the store: work on a fresh copy each run, marked local.
  const root = benchDataDir(".contribute-run");
  await rm(root, { recursive: true, force: true });
  await cp(seed.root, root, { recursive: true });
  for (const s of SIZES) {
    const file = join(root, s.slug, "project.json");
    const meta = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(file, JSON.stringify({ ...meta, local: true }));
  }
  const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  let next = 10_000_000;
  const send = async (slug: string) => {
    const records = Array.from({ length: BATCH }, () => {
      const id = next++;
      return { id, text: `new note ${id}`, score: id / 4 };
    });
    const res = await fetch(`${serving.url}/projects/${slug}/contribute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ records }),
    });
    const view = await res.json();
    if (res.status !== 201 || view.status !== "merged" || view.acceptedCount !== BATCH) {
      throw new Error(`${slug}: ${res.status} ${JSON.stringify(view)}`);
    }
  };
  try {
    const cold: Record<string, number> = {};
    for (const s of SIZES) {
      const t0 = performance.now();
      await send(s.slug);
      cold[s.slug] = performance.now() - t0;
    }
    const times: Record<string, number[]> = Object.fromEntries(SIZES.map((s) => [s.slug, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of SIZES) {
        const t0 = performance.now();
        await send(s.slug);
        times[s.slug].push(performance.now() - t0);
      }
    }
    console.log(`\n${BATCH}-record contributions over HTTP, ${ROUNDS} per project, interleaved\n`);
    printTable(
      ["project", "records before", "first (builds the identity set) ms", "median ms", "p90 ms"],
      SIZES.map((s) => [
        s.slug,
        s.records.toLocaleString("en"),
        fmtMs(cold[s.slug]),
        fmtMs(median(times[s.slug])),
        fmtMs(percentile(times[s.slug], 90)),
      ]),
    );
    const ratio = median(times[SIZES[1].slug]) / median(times[SIZES[0].slug]);
    console.log(`\nratio 1M / 10k: ${fmtRatio(median(times[SIZES[1].slug]), median(times[SIZES[0].slug]))}\n`);
    console.log(verdict(ratio <= TARGET, `1M-record project within ${TARGET}x of the 10k one: ${ratio.toFixed(2)}x`));
  } finally {
    await serving.shutdown();
    await rm(root, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "contribute",
  description: "500-record contributions into 10k- and 1M-record local projects, median latency and ratio",
  run,
};
