/**
 * Benchmark `disk_growth`: 120 contributions of 500 records over HTTP into a
 * new local project, every version kept. Measured: the bytes of every part
 * file the project holds (all versions) against the bytes of the newest
 * version's parts. Target: at most log2(batches) + 1 times (small parts are
 * folded so that a record is rewritten about log2 times, not once a batch).
 *
 * @module
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { type Benchmark, fmtMs, printTable, verdict } from "./_util.ts";

const BATCHES = 120;
const BATCH = 500;

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "svc-bench-disk-"));
  const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  try {
    await post(`${serving.url}/projects`, {
      slug: "growth",
      title: "Disk growth",
      readme: "Records sent in many small batches.",
      schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
    });
    const t0 = performance.now();
    for (let b = 0; b < BATCHES; b++) {
      const records = Array.from({ length: BATCH }, (_, i) => {
        const id = b * BATCH + i;
        return { id, text: `note ${id}: ${"lorem ipsum dolor sit amet ".repeat(2)}` };
      });
      await post(`${serving.url}/projects/growth/contribute`, { records });
    }
    const ms = performance.now() - t0;
    const manifest = await (await fetch(`${serving.url}/projects/growth/manifest`)).json();
    const newest = (manifest.parts as { bytes: number }[]).reduce((a, p) => a + p.bytes, 0);
    const dir = join(root, "growth", "parts");
    let all = 0;
    const files = (await readdir(dir)).filter((n) => n.endsWith(".parquet"));
    for (const name of files) all += (await stat(join(dir, name))).size;
    const bound = Math.log2(BATCHES) + 1;
    const ratio = all / newest;
    console.log(`${BATCHES} contributions of ${BATCH} records, every version kept\n`);
    printTable(["what", "value"], [
      ["time for all batches, ms", fmtMs(ms)],
      ["parts of the newest version", String(manifest.parts.length)],
      ["newest version's part bytes", newest.toLocaleString("en")],
      ["part files on disk (all versions)", String(files.length)],
      ["part bytes on disk (all versions)", all.toLocaleString("en")],
      ["ratio all / newest", `${ratio.toFixed(2)}x`],
      ["bound log2(batches) + 1", `${bound.toFixed(2)}x`],
    ]);
    console.log(`\n${verdict(ratio <= bound, `disk growth ${ratio.toFixed(2)}x <= ${bound.toFixed(2)}x`)}`);
  } finally {
    await serving.shutdown();
    await rm(root, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "disk_growth",
  description: "120 batches of 500 records: part bytes of all versions against the newest version's",
  run,
};
