/**
 * Benchmark `healthz`: `GET /healthz` on a node (`svc serve`, its own
 * process, no token, quiet, a store of one project) against a bare
 * `Deno.serve` in a process of its own answering the very same bytes, both
 * driven by `wrk` (2 threads, 16 connections) in alternating rounds on the
 * same two cores. Target (issue 17, item 2): the node at >= 0.5x of the bare
 * server's requests per second. For information: the same on a node over an
 * empty store (what is left when no project's folders are looked at), and
 * `GET /projects`, which goes through the full handler.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startServe } from "../../tests/support/cli_process.ts";
import { type Benchmark, fmtRatio, median, printTable, verdict } from "./_util.ts";
import { ensureSummarySeed } from "./summary_scale.ts";

const ROUNDS = 5;
const SECONDS = 3;
const TARGET = 0.5;

/** Requests per second `wrk` reached on `url`. */
export async function wrk(url: string, seconds = SECONDS): Promise<number> {
  return (await wrkRun(url, seconds)).rate;
}

/** What `wrk` reached on `url`: requests per second, and requests answered in all. */
export function wrkRun(url: string, seconds = SECONDS): Promise<{ rate: number; requests: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", ["-t2", "-c16", `-d${seconds}s`, url], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (c: Uint8Array) => (out += new TextDecoder().decode(c)));
    child.once("error", (e) => reject(new Error(`wrk could not run (apt-get install wrk): ${e.message}`)));
    child.once("close", (code) => {
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const requests = /(\d+) requests in /.exec(out);
      const refused = /Non-2xx or 3xx responses: (\d+)/.exec(out);
      if (code !== 0 || !rate || !requests) return reject(new Error(`wrk exited ${code}: ${out}`));
      if (refused) return reject(new Error(`${url} answered ${refused[1]} requests with an error`));
      resolve({ rate: Number(rate[1]), requests: Number(requests[1]) });
    });
  });
}

/** Starts the bare server answering `body` with `headers`; resolves with its URL and a stop function. */
async function startBare(body: string, headers: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", fileURLToPath(new URL("./_bare_serve.ts", import.meta.url))],
    env: { BARE_ANSWER: JSON.stringify({ body, headers }) },
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!/listening on (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the bare server did not start: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return {
    url: `http://127.0.0.1:${/listening on (\d+)/.exec(text)![1]}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const seed = await ensureSummarySeed();
  const node = await startServe(["--store", seed.root, "--quiet", "--read-only"]);
  const emptyStore = await Deno.makeTempDir({ prefix: "svc-bench-empty-" });
  const empty = await startServe(["--store", emptyStore, "--quiet", "--read-only"]);
  try {
    const answer = await fetch(`${node.url}/healthz`);
    const body = await answer.text();
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "cache-control", "x-svc-node"]) headers[name] = answer.headers.get(name) ?? "";
    const bare = await startBare(body, headers);
    try {
      const same = await fetch(`${bare.url}/healthz`).then((r) => r.text());
      if (same !== body) throw new Error("the bare server does not answer the node's bytes");
      console.log(`/healthz body: ${body.length} bytes, the same from both\n`);
      await wrk(`${node.url}/healthz`, 1);
      await wrk(`${bare.url}/healthz`, 1);
      const [nodeRates, bareRates, fullRates, emptyRates]: number[][] = [[], [], [], []];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate who goes first, so a drift of the machine's speed falls on both.
        if (round % 2 === 0) {
          nodeRates.push(await wrk(`${node.url}/healthz`));
          bareRates.push(await wrk(`${bare.url}/healthz`));
        } else {
          bareRates.push(await wrk(`${bare.url}/healthz`));
          nodeRates.push(await wrk(`${node.url}/healthz`));
        }
        fullRates.push(await wrk(`${node.url}/projects`));
        emptyRates.push(await wrk(`${empty.url}/healthz`));
      }
      const [n, b, f, e] = [median(nodeRates), median(bareRates), median(fullRates), median(emptyRates)];
      const rate = (x: number) => Math.round(x).toLocaleString("en-US");
      printTable(["what", "req/s (median of 5 rounds)", "rounds", "vs bare Deno.serve"], [
        ["node GET /healthz", rate(n), nodeRates.map(rate).join(" "), fmtRatio(n, b)],
        ["bare Deno.serve, same bytes", rate(b), bareRates.map(rate).join(" "), "1.00x"],
        ["node GET /healthz, empty store (information)", rate(e), emptyRates.map(rate).join(" "), fmtRatio(e, b)],
        ["node GET /projects (information)", rate(f), fullRates.map(rate).join(" "), fmtRatio(f, b)],
      ]);
      console.log(
        `\n${verdict(n / b >= TARGET, `/healthz at ${(n / b).toFixed(2)}x of bare Deno.serve (>= ${TARGET}x)`)}`,
      );
    } finally {
      await bare.stop();
    }
  } finally {
    for (const served of [node, empty]) {
      served.child.kill("SIGTERM");
      await served.status;
    }
    await Deno.remove(emptyStore, { recursive: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "healthz",
  description: "GET /healthz req/s at 16 connections (wrk) against a bare Deno.serve answering the same bytes",
  run,
};
