/**
 * Benchmark `metrics`: what counting costs a data page. Two nodes (`svc
 * serve`, each its own process, quiet, read-only) over the same store of
 * `data_pages`, one with metrics on (the default) and one with
 * `--no-metrics`, driven by `wrk` (2 threads, 16 connections) in alternating
 * rounds on `GET /projects/{slug}/data?limit=200` at a fixed offset (pages
 * served from the page cache, where the handler's own cost shows most).
 * Target (issue 28): metrics on within 3% of off (on/off >= 0.97 of the
 * requests per second). For information: one scrape of `/metrics` after the
 * run, its size and time.
 *
 * @module
 */
import { startServe } from "../../tests/support/cli_process.ts";
import { type Benchmark, fmtRatio, median, printTable, verdict } from "./_util.ts";
import { ensureStore, PROJECTS } from "./data_pages.ts";
import { wrk } from "./healthz.ts";

const ROUNDS = 7;
const SECONDS = 3;
const TARGET = 0.97;

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root } = await ensureStore();
  const slug = PROJECTS[0].slug;
  const page = `/projects/${slug}/data?limit=200&offset=400000`;
  const on = await startServe(["--store", root, "--quiet", "--read-only"]);
  const off = await startServe(["--store", root, "--quiet", "--read-only", "--no-metrics"]);
  try {
    const [a, b] = await Promise.all([on, off].map((n) => fetch(`${n.url}${page}`).then((r) => r.text())));
    if (a !== b) throw new Error("the two nodes answer the page differently");
    console.log(`page ${page}: ${a.length} bytes, the same from both\n`);
    await wrk(`${on.url}${page}`, 1);
    await wrk(`${off.url}${page}`, 1);
    const [onRates, offRates]: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so a drift of the machine's speed falls on both.
      if (round % 2 === 0) {
        onRates.push(await wrk(`${on.url}${page}`, SECONDS));
        offRates.push(await wrk(`${off.url}${page}`, SECONDS));
      } else {
        offRates.push(await wrk(`${off.url}${page}`, SECONDS));
        onRates.push(await wrk(`${on.url}${page}`, SECONDS));
      }
    }
    const started = performance.now();
    const scraped = await (await fetch(`${on.url}/metrics`)).text();
    const scrapeMs = performance.now() - started;
    const [n, f] = [median(onRates), median(offRates)];
    const rate = (x: number) => Math.round(x).toLocaleString("en-US");
    printTable(["node", `req/s (median of ${ROUNDS} rounds)`, "rounds", "vs metrics off"], [
      ["metrics on (default)", rate(n), onRates.map(rate).join(" "), fmtRatio(n, f)],
      ["--no-metrics", rate(f), offRates.map(rate).join(" "), "1.00x"],
    ]);
    console.log(`\none scrape of /metrics after the run: ${scraped.length} bytes in ${scrapeMs.toFixed(1)} ms`);
    console.log(
      `\n${verdict(n / f >= TARGET, `data page with metrics at ${(n / f).toFixed(3)}x of without (>= ${TARGET}x)`)}`,
    );
  } finally {
    for (const served of [on, off]) {
      served.child.kill("SIGTERM");
      await served.status;
    }
  }
}

/** The benchmark, for the harness. */
export const benchmark: Benchmark = {
  name: "metrics",
  description: "a data page with /metrics counting on vs --no-metrics (wrk, alternating rounds)",
  run,
};
