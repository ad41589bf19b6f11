/**
 * Benchmark `healthz`: `GET /healthz` on a node (`svc serve`, its own
 * process, no token, quiet, a store of one project) against a bare
 * `Deno.serve` in a process of its own answering the very same bytes, both
 * driven by `wrk` (2 threads, 16 connections) in alternating rounds on the
 * same two cores. Targets (issue 17, item 2; issue 47): `/healthz` and
 * `/readyz` at >= 0.5x of the bare server's requests per second (the median
 * of the rounds' paired ratios), the same before the node's first SQL worker
 * has started and after. For information: `/healthz` on a node over an empty
 * store, and over a store of 200 projects (the list of projects is kept while
 * the store folder is as it was, so it costs what one project does), and `GET
 * /projects`, which goes through the full handler.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServe } from "../../tests/support/cli_process.ts";
import { type Benchmark, median, printTable, verdict } from "./_util.ts";
import { ensureSummarySeed } from "./summary_scale.ts";

const ROUNDS = 5;
const SECONDS = 3;
const TARGET = 0.5;
const MANY_PROJECTS = 200;

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

/** Starts the node's first SQL worker: a query over the seed's one project. */
async function startWorker(url: string): Promise<void> {
  const { projects: [project] } = await (await fetch(`${url}/projects`)).json();
  const res = await fetch(`${url}/projects/${project.slug}/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql: "SELECT 42" }),
  });
  if (res.status !== 200) throw new Error(`the first query answered ${res.status}: ${await res.text()}`);
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

/** Copies the project folder `from` into `store` as project `slug` (its `project.json` and manifests renamed). */
async function copyProject(from: string, store: string, slug: string): Promise<void> {
  const to = join(store, slug);
  await cp(from, to, { recursive: true });
  const versions = [...Deno.readDirSync(to)].filter((e) => e.isDirectory && /^v\d+$/.test(e.name));
  const named: [string, string][] = [
    ["project.json", "slug"],
    ...versions.map((v) => [join(v.name, "manifest.json"), "project"] as [string, string]),
  ];
  for (const [file, field] of named) {
    const doc = JSON.parse(await Deno.readTextFile(join(to, file)));
    await Deno.writeTextFile(join(to, file), JSON.stringify({ ...doc, [field]: slug }, null, 2) + "\n");
  }
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const seed = await ensureSummarySeed();
  const emptyStore = await Deno.makeTempDir({ prefix: "svc-bench-empty-" });
  const manyStore = await Deno.makeTempDir({ prefix: "svc-bench-many-" });
  const [project] = [...Deno.readDirSync(seed.root)].filter((e) => e.isDirectory).map((e) => e.name);
  for (let i = 1; i <= MANY_PROJECTS; i++) await copyProject(join(seed.root, project), manyStore, `${project}-${i}`);
  const served: Awaited<ReturnType<typeof startServe>>[] = [];
  const serve = async (store: string) => {
    served.push(await startServe(["--store", store, "--quiet", "--read-only"]));
    return served.at(-1)!;
  };
  try {
    const node = await serve(seed.root);
    const empty = await serve(emptyStore);
    const many = await serve(manyStore);
    const manyHealth = await (await fetch(`${many.url}/healthz`)).json();
    if (
      manyHealth.projects !== MANY_PROJECTS || manyHealth.versions !== MANY_PROJECTS || manyHealth.incomplete.length
    ) {
      throw new Error(`the store of ${MANY_PROJECTS} projects is not whole: ${JSON.stringify(manyHealth)}`);
    }
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
      const rate = (x: number) => Math.round(x).toLocaleString("en-US");
      const rows: string[][] = [];
      const verdicts: string[] = [];
      // Before any SQL worker has started, then after one has (the walls /healthz shows come from it then).
      for (const phase of ["before SQL workers start", "after a SQL worker started"]) {
        if (phase.startsWith("after")) await startWorker(node.url);
        const [healthRates, readyRates, bareRates, fullRates, emptyRates, manyRates] = Array.from(
          { length: 6 },
          () => [] as number[],
        );
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate who goes first, so a drift of the machine's speed falls on all.
          const runs: [number[], string][] = [
            [healthRates, `${node.url}/healthz`],
            [readyRates, `${node.url}/readyz`],
            [bareRates, `${bare.url}/healthz`],
          ];
          for (const [into, url] of round % 2 === 0 ? runs : runs.reverse()) into.push(await wrk(url));
          if (phase.startsWith("before")) {
            fullRates.push(await wrk(`${node.url}/projects`));
            emptyRates.push(await wrk(`${empty.url}/healthz`));
            manyRates.push(await wrk(`${many.url}/healthz`));
          }
        }
        const b = median(bareRates);
        const paired = (a: number[]) => median(a.map((x, i) => x / bareRates[i]));
        const line = (what: string, rates: number[], ratio = paired(rates)) => [
          what,
          rate(median(rates)),
          rates.map(rate).join(" "),
          `${ratio.toFixed(2)}x`,
        ];
        rows.push(
          line(`node GET /healthz, ${phase}`, healthRates),
          line(`node GET /readyz, ${phase}`, readyRates),
          line(`bare Deno.serve, same bytes (${phase})`, bareRates, 1),
        );
        if (phase.startsWith("before")) {
          rows.push(
            line("node GET /healthz, empty store (information)", emptyRates, median(emptyRates) / b),
            line(`node GET /healthz, ${MANY_PROJECTS} projects (information)`, manyRates, median(manyRates) / b),
            line("node GET /projects (information)", fullRates, median(fullRates) / b),
          );
        }
        for (const [what, rates] of [["/healthz", healthRates], ["/readyz", readyRates]] as const) {
          verdicts.push(
            verdict(
              paired(rates) >= TARGET,
              `${what} ${phase}: ${paired(rates).toFixed(2)}x of bare Deno.serve (>= ${TARGET}x)`,
            ),
          );
        }
      }
      printTable(["what", "req/s (median of 5 rounds)", "rounds", "vs bare Deno.serve (paired)"], rows);
      console.log("");
      for (const v of verdicts) console.log(v);
    } finally {
      await bare.stop();
    }
  } finally {
    for (const { child, status } of served) {
      child.kill("SIGTERM");
      await status;
    }
    await Deno.remove(emptyStore, { recursive: true });
    await Deno.remove(manyStore, { recursive: true });
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "healthz",
  description: "GET /healthz req/s at 16 connections (wrk) against a bare Deno.serve answering the same bytes",
  run,
};
