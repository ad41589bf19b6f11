/**
 * Benchmark `push`: a ~1 GB JSON-lines file pushed to the test origin running
 * in a process of its own, beside `curl` uploading the same gzip parts to the
 * same origin's presigned part URLs (4 at once) in the same run.
 *
 * The gzip copy is written once by the push's own `gzipCopy` (timed, and
 * reported apart beside `gzip -6` of the same file). Each timed round then
 * runs `Client.push` from the state a push stopped after its gzip leaves:
 * the copy whole, no upload open. So a round is the push's whole upload path
 * (the node check, init, parts read and PUT 4 at a time with their ETags
 * saved after each, complete), and curl's is an init plus the same parts PUT
 * by `curl --parallel --parallel-max 4`. The origin screens nothing during
 * the benchmark. Target: the push's upload at least 0.8x of curl's
 * throughput.
 *
 * @module
 */
import { link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { OriginClient as Client } from "../../src/origin/mod.ts";
import { gzipCopy } from "../../src/origin/client/_upload_file.ts";
import {
  fingerprintOf,
  planParts,
  uploadPaths,
  type UploadState,
  writeUploadState,
} from "../../src/origin/client/_upload_state.ts";
import { post } from "../../tests/support/local_project.ts";
import { spawnOrigin } from "../../tests/support/origin_process.ts";
import { AGENT_KEY, PUSH_SCHEMA, writeRecords } from "../../tests/support/push_fixture.ts";
import { benchDataDir, type Benchmark, median, printTable, runTool, verdict } from "./_util.ts";

/** Records in the file (about 730 bytes each: ~1 GB). */
const RECORDS = 1_400_000;
/** Timed rounds of each side. */
const ROUNDS = 3;
/** Target: the push's upload throughput at least this share of curl's. */
const TARGET = 0.8;
const SLUG = "bench-push";
/** The origin screens nothing while the benchmark runs (a screening of 1 GB would compete for the cores). */
const NEVER_MS = 2_000_000_000;

/** The ~1 GB JSON-lines file, written once and reused while its marker matches. */
async function benchFile(): Promise<string> {
  const dir = benchDataDir("push");
  const file = join(dir, "records.jsonl");
  const spec = JSON.stringify({ generator: 1, records: RECORDS });
  if ((await readFile(join(dir, "READY.json"), "utf8").catch(() => null)) !== spec) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    console.log(`generating ${RECORDS} records in ${file} ...`);
    await writeRecords(file, RECORDS);
    await writeFile(join(dir, "READY.json"), spec);
  } else {
    console.log(`reusing bench data in ${dir}`);
  }
  return file;
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const file = await benchFile();
  const size = (await stat(file)).size;
  const paths = uploadPaths(file);
  const scratch = await mkdtemp(benchDataDir(".push-run-"));
  const kept = join(scratch, "copy.gz");
  const origin = await spawnOrigin(join(scratch, "origin"), "66".repeat(32), { screenMs: NEVER_MS });
  try {
    const created = await post(origin.url, "/projects", {
      slug: SLUG,
      title: "Bench push",
      readme: "Records pushed by the push benchmark.",
      schemaDef: PUSH_SCHEMA,
    }, { authorization: `Bearer ${AGENT_KEY}` });
    if (created.status !== 201) throw new Error(`cannot create ${SLUG}: ${created.text}`);

    await rm(paths.gzip, { force: true });
    await rm(paths.state, { force: true });
    const gzipMs = performance.now();
    const bytes = await gzipCopy(file, paths.gzip);
    const pushGzip = performance.now() - gzipMs;
    const cliGzip = await runTool("gzip", ["-6", "-c", file], join(scratch, "cli.gz"));
    await rm(join(scratch, "cli.gz"));
    await link(paths.gzip, kept);
    const plan = planParts(bytes);
    const partsDir = join(scratch, "parts");
    await mkdir(partsDir);
    await runTool("split", ["-b", String(plan.partSize), "-d", "-a", "4", kept, join(partsDir, "p")]);

    const client = new Client({ baseUrl: origin.url, apiKey: AGENT_KEY });
    const pushRound = async () => {
      // The state a push stopped after its gzip leaves: the copy whole, no upload open.
      await rm(paths.gzip, { force: true });
      await link(kept, paths.gzip);
      const fingerprint = await fingerprintOf(file, { baseUrl: origin.url, slug: SLUG, compress: true });
      const state: UploadState = {
        format: "svc-upload/1",
        ...fingerprint!,
        uploadBytes: bytes,
        ...plan,
        uploadId: "",
        expiresAt: null,
        urls: {},
        etags: {},
      };
      await writeUploadState(paths.state, state);
      const t0 = performance.now();
      const result = await client.push(SLUG, file, { workers: 4 });
      const ms = performance.now() - t0;
      if (result.uploadedParts !== plan.parts || result.bytes !== bytes) {
        throw new Error(`the push sent ${result.uploadedParts} parts of ${result.bytes} bytes, not ${plan.parts}`);
      }
      return ms;
    };
    const curlRound = async () => {
      const init = await post(origin.url, `/projects/${SLUG}/uploads`, {
        bytes,
        ...plan,
        sourceDeclaration: null,
        compression: "gzip",
      }, { authorization: `Bearer ${AGENT_KEY}` });
      if (init.status !== 201) throw new Error(`init: ${init.text}`);
      const config = (init.body.parts as { n: number; url: string }[]).map(({ n, url }) =>
        `upload-file = "${join(partsDir, `p${String(n - 1).padStart(4, "0")}`)}"\nurl = "${url}"\noutput = "/dev/null"`
      ).join("\n");
      await writeFile(join(scratch, "curl.cfg"), config);
      return await runTool("curl", [
        "--silent",
        "--show-error",
        "--fail",
        "--parallel",
        "--parallel-max",
        "4",
        "--config",
        join(scratch, "curl.cfg"),
      ]);
    };
    const pushTimes: number[] = [];
    const curlTimes: number[] = [];
    // An untimed round first, then rounds alternating which side goes first.
    for (let i = -1; i < ROUNDS; i++) {
      const [p, c] = i % 2 === 0
        ? [await pushRound(), await curlRound()]
        : await curlRound().then(async (c) => [await pushRound(), c]);
      if (i < 0) continue;
      pushTimes.push(p);
      curlTimes.push(c);
    }
    const mib = (n: number) => n / 1048576;
    const rate = (ms: number) => (mib(bytes) / (ms / 1000)).toFixed(0);
    console.log(
      `\nA JSON-lines file of ${mib(size).toFixed(0)} MiB, ${mib(bytes).toFixed(0)} MiB as gzip, in ${plan.parts} ` +
        `parts of ${mib(plan.partSize)} MiB, to the test origin in its own process; median of ${ROUNDS}\n`,
    );
    printTable(["what", "s", "MiB/s"], [
      [
        "gzip copy (level 6, the push's own gzipCopy)",
        (pushGzip / 1000).toFixed(2),
        (mib(size) / (pushGzip / 1000)).toFixed(0),
      ],
      [
        "gzip -6 of the same file (information)",
        (cliGzip / 1000).toFixed(2),
        (mib(size) / (cliGzip / 1000)).toFixed(0),
      ],
      [
        "svc push: upload (init, 4 parts at once, complete)",
        (median(pushTimes) / 1000).toFixed(2),
        rate(median(pushTimes)),
      ],
      ["curl --parallel-max 4: the same parts PUT", (median(curlTimes) / 1000).toFixed(2), rate(median(curlTimes))],
    ]);
    const ratio = median(curlTimes) / median(pushTimes);
    console.log(
      `\n${
        verdict(ratio >= TARGET, `push's upload at ${ratio.toFixed(2)}x of curl's throughput (target >= ${TARGET}x)`)
      }`,
    );
  } finally {
    await origin.stop();
    await rm(paths.gzip, { force: true });
    await rm(paths.state, { force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "push",
  description: "push of a ~1 GB JSON-lines file to the test origin vs curl uploading the same gzip parts",
  run,
};
