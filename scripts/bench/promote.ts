/**
 * Benchmark `promote`: a node-local project of 1,000,000 records promoted to
 * the test origin running in a process of its own (bundled offline, loaded
 * and checked, records read back from the parts as JSON lines, gzip, parts
 * uploaded, the origin's screening waited for), then promoted again, which
 * must send nothing new: the origin's duplicate gate rejects every record
 * and the answer is "up to date". Prints the time of each phase and the
 * throughput; the phases after the upload are the test origin's screening,
 * not the client's work. Reference (information): native DuckDB in-process
 * writing the same parts as gzip JSON lines, the least a client must do
 * before it uploads.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { OriginClient as Client } from "../../src/origin/mod.ts";
import type { PushProgress } from "../../src/client/mod.ts";
import { promote, type PromoteResult } from "../../src/local/push_bundle.ts";
import { post } from "../../tests/support/local_project.ts";
import { spawnOrigin } from "../../tests/support/origin_process.ts";
import { AGENT_KEY, PUSH_SCHEMA } from "../../tests/support/push_fixture.ts";
import { ensureBenchStore, sqlString } from "./_bench_store.ts";
import { benchDataDir, type Benchmark, printTable, verdict } from "./_util.ts";

const SLUG = "bench-notes";
/** Records of the local project's version. */
const RECORDS = 1_000_000;
/** Parts of the version. */
const PARTS = 4;

function partSql(i: number): string {
  const n = RECORDS / PARTS;
  // Hex digits mapped to letters: runs of digits in a hash would now and then look like a resident registration number.
  return `SELECT (${i * n} + range)::BIGINT AS id, 'note ' || (${i * n} + range) || ': ' || ` +
    `translate(md5((${i * n} + range)::VARCHAR), '0123456789', 'ghijklmnop') AS text FROM range(${n})`;
}

/** Times of the phases of one promote, in ms from its start. */
interface Phases {
  gzipAt: number | null;
  uploadAt: number | null;
  uploadedAt: number | null;
  endAt: number;
  result: PromoteResult;
}

async function timedPromote(client: Client, store: string): Promise<Phases> {
  const t0 = performance.now();
  let gzipAt: number | null = null;
  let uploadAt: number | null = null;
  let uploadedAt: number | null = null;
  const onProgress = (p: PushProgress) => {
    const at = performance.now() - t0;
    if (p.phase === "gzip") gzipAt ??= at;
    if (p.phase === "upload") uploadAt ??= at;
    if (p.phase === "upload" && p.partsDone === p.parts) uploadedAt = at;
  };
  const result = await promote(client, SLUG, { store, wait: true, onProgress, env: {} });
  return { gzipAt, uploadAt, uploadedAt, endAt: performance.now() - t0, result };
}

function seconds(ms: number | null): string {
  return ms === null ? "-" : (ms / 1000).toFixed(2);
}

/** Milliseconds native DuckDB takes to write `parts` as gzip JSON lines. */
async function duckdbGzipJson(parts: string[], target: string): Promise<number> {
  const db = await DuckDBInstance.create(":memory:", { threads: "2" });
  const c = await db.connect();
  try {
    const t0 = performance.now();
    await c.run(
      `COPY (SELECT * FROM read_parquet([${parts.map(sqlString).join(", ")}])) TO ${sqlString(target)} ` +
        "(FORMAT json, COMPRESSION gzip)",
    );
    return performance.now() - t0;
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root, parts } = await ensureBenchStore("promote", { generator: 2, records: RECORDS, parts: PARTS }, [{
    slug: SLUG,
    title: "Bench promote",
    fields: PUSH_SCHEMA.fields,
    parts: Array.from({ length: PARTS }, (_, i) => ({ sql: partSql(i), rowGroupSize: 10_240 })),
    local: true,
  }]);
  const scratch = await mkdtemp(benchDataDir(".promote-run-"));
  const origin = await spawnOrigin(join(scratch, "origin"), "55".repeat(32), { screenMs: 0 });
  try {
    const created = await post(origin.url, "/projects", {
      slug: SLUG,
      title: "Bench promote",
      readme: "Records promoted by the promote benchmark.",
      schemaDef: PUSH_SCHEMA,
    }, { authorization: `Bearer ${AGENT_KEY}` });
    if (created.status !== 201) throw new Error(`cannot create ${SLUG}: ${created.text}`);
    const client = new Client({ baseUrl: origin.url, apiKey: AGENT_KEY });
    const reference = await duckdbGzipJson(parts.get(SLUG)!, join(scratch, "records.jsonl.gz"));
    const first = await timedPromote(client, root);
    const again = await timedPromote(client, root);
    const row = (what: string, p: Phases) => {
      const upload = p.uploadAt !== null && p.uploadedAt !== null ? p.uploadedAt - p.uploadAt : null;
      const gzip = p.gzipAt !== null && p.uploadAt !== null ? p.uploadAt - p.gzipAt : null;
      return [
        what,
        seconds(p.gzipAt),
        seconds(gzip),
        seconds(upload),
        seconds(p.uploadedAt === null ? null : p.endAt - p.uploadedAt),
        seconds(p.endAt),
        String(p.result.status),
        String(p.result.acceptedCount ?? "-"),
      ];
    };
    console.log(`\nA local project of ${RECORDS} records in ${PARTS} parts, to the test origin in its own process\n`);
    printTable(
      [
        "promote",
        "bundle + load + read back s",
        "gzip s",
        "upload s",
        "complete + screening s",
        "total s",
        "status",
        "accepted",
      ],
      [row("first", first), row("again (nothing new)", again)],
    );
    const clientMs = first.uploadedAt ?? first.endAt;
    console.log(
      `\nfirst promote: ${(RECORDS / (first.endAt / 1000)).toFixed(0)} records/s end to end, ` +
        `${(RECORDS / (clientMs / 1000)).toFixed(0)} records/s until the origin holds every part`,
    );
    console.log(
      `information: until the origin holds every part, the first promote took ${(clientMs / reference).toFixed(2)}x ` +
        `the time native DuckDB takes to write the same records as gzip JSON lines (${seconds(reference)} s)`,
    );
    const upToDate = again.result.status === "rejected" &&
      (again.result.verdict as { gate?: string } | null)?.gate === "dedup";
    console.log(
      `\n${
        verdict(
          first.result.status === "merged" && first.result.acceptedCount === RECORDS,
          `first promote merged ${first.result.acceptedCount} of ${RECORDS} records`,
        )
      }`,
    );
    console.log(
      verdict(
        upToDate,
        `a repeat promote is up to date (${again.result.status}, gate ${
          (again.result.verdict as { gate?: string } | null)?.gate
        })`,
      ),
    );
  } finally {
    await origin.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "promote",
  description: "promote of a local project of 1,000,000 records to the test origin, then again (nothing new)",
  run,
};
