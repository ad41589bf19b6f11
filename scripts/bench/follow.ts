/**
 * Benchmark `follow`: the time a follow sync takes to bring in a new ~1 GB
 * version (16 parts, from a node in its own process over loopback), beside a
 * plain `pull()` of the same version into an empty store in the same run.
 * A sync is a pull plus a look at the newest manifest first, so the target is
 * at most 1.1x of the pull's time.
 *
 * @module
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { startServe } from "../../tests/support/cli_process.ts";
import { Client } from "../../src/client/client.ts";
import { pull } from "../../src/local/pull.ts";
import { startFollower } from "../../src/follow/mod.ts";
import { pullBenchStore } from "./pull.ts";
import { benchDataDir, type Benchmark, median, printTable, verdict } from "./_util.ts";

/** Timed runs of each side. */
const RUNS = 3;
/** Target: a follow sync at most this multiple of a plain pull's time. */
const TARGET = 1.1;

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const root = await pullBenchStore();
  const serving = await startServe(["--store", root, "--quiet"]);
  const scratch = benchDataDir(".follow-run");
  const client = new Client({ baseUrl: serving.url, apiKey: "bench" });
  try {
    const manifest = await client.manifest("big");
    const bytes = manifest.parts.reduce((a, p) => a + p.bytes, 0);
    const pullTimes: number[] = [];
    const syncTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await rm(scratch, { recursive: true, force: true });
      await mkdir(scratch, { recursive: true });
      let t0 = performance.now();
      await pull(client, "big", { store: join(scratch, "pulled"), workers: 4 });
      pullTimes.push(performance.now() - t0);
      const trust = { trustFile: join(scratch, "trust.json"), origin: serving.url, required: false };
      t0 = performance.now();
      const follower = await startFollower({
        client,
        store: join(scratch, "followed"),
        trust,
        slugs: ["big"],
        intervalMs: 3_600_000,
        log: null,
      });
      // The first round starts at once; this waits for it (and a second, empty one).
      await follower.syncNow();
      syncTimes.push(performance.now() - t0);
      await follower.stop();
      const status = follower.status().big;
      if (status.version !== manifest.version || status.error) {
        throw new Error(`the sync did not take v${manifest.version}: ${JSON.stringify(status)}`);
      }
    }
    const ratio = median(syncTimes) / median(pullTimes);
    const mibs = (ms: number) => (bytes / 1048576 / (ms / 1000)).toFixed(0);
    console.log(
      `\nA new version of ${(bytes / 1048576).toFixed(0)} MiB in 16 parts, over loopback; median of ${RUNS}\n`,
    );
    printTable(["what", "median s", "MiB/s"], [
      ["svc pull into an empty store", (median(pullTimes) / 1000).toFixed(2), mibs(median(pullTimes))],
      ["follow sync taking the version", (median(syncTimes) / 1000).toFixed(2), mibs(median(syncTimes))],
    ]);
    console.log(
      `\n${verdict(ratio <= TARGET, `follow sync at ${ratio.toFixed(2)}x of the pull's time (target <= ${TARGET}x)`)}`,
    );
  } finally {
    serving.child.kill("SIGTERM");
    await serving.status;
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "follow",
  description: "a follow sync taking a new ~1 GB version vs a plain pull of it",
  run,
};
