/**
 * Benchmark `summary_scale`: the summary routes (`GET /projects`,
 * `GET /projects/{slug}`, `GET /healthz` with the token, MCP `list_datasets`)
 * on a node whose project holds 10 versions and on one whose project holds
 * 10,000 (three parts each, shared as folding leaves them), measured in the
 * same run, interleaved. Target: the 10,000-version medians within 2x of the
 * 10-version ones.
 *
 * @module
 */
import { cp, mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serveNode, type ServingNode } from "../../server.ts";
import { type BenchStore, ensureBenchStore } from "./_bench_store.ts";
import { benchDataDir, type Benchmark, fmtMs, fmtRatio, interleaved, median, printTable, verdict } from "./_util.ts";

const SIZES = [10, 10_000];
const TOKEN = "summary-bench-token-0123456789";
const TARGET = 2;

/** A store whose project `notes` holds `versions` versions over the seed's three parts. */
async function storeWith(seedRoot: string, versions: number): Promise<string> {
  const root = benchDataDir(`summary-${versions}`);
  const marker = join(root, "READY");
  if ((await readFile(marker, "utf8").catch(() => "")) === String(versions)) return root;
  await rm(root, { recursive: true, force: true });
  await cp(seedRoot, root, { recursive: true });
  const dir = join(root, "notes");
  const v1 = JSON.parse(await readFile(join(dir, "v1", "manifest.json"), "utf8"));
  for (let n = 2; n <= versions; n++) {
    await mkdir(join(dir, `v${n}`));
    const manifest = { ...v1, version: n, parent: n - 1, totals: { ...v1.totals, contributions: n } };
    await writeFile(join(dir, `v${n}`, "manifest.json"), JSON.stringify(manifest));
  }
  await writeFile(marker, String(versions));
  return root;
}

/**
 * The bench store of one project, `notes`, with one version of three parts of
 * 1,000 records (also the store of the `healthz` benchmark).
 *
 * @example
 * ```ts ignore
 * const { root } = await ensureSummarySeed();
 * ```
 */
export function ensureSummarySeed(): Promise<BenchStore> {
  return ensureBenchStore("summary-seed", { generator: 1 }, [{
    slug: "notes",
    title: "Notes with many versions",
    fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }],
    parts: [0, 1, 2].map((i) => ({
      sql: `SELECT (${i} * 1000 + r)::BIGINT AS id, 'note ' || r AS text FROM range(1000) t(r)`,
    })),
  }]);
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const seed = await ensureSummarySeed();
  const roots = [];
  for (const n of SIZES) roots.push(await storeWith(seed.root, n));
  const held = await Promise.all(
    roots.map(async (r) => (await readdir(join(r, "notes"))).filter((x) => /^v\d+$/.test(x)).length),
  );
  console.log(`project versions held: ${held.join(" and ")}\n`);
  const nodes: ServingNode[] = [];
  try {
    for (const root of roots) {
      nodes.push(await serveNode({ store: root, host: "127.0.0.1", port: 0, token: TOKEN, log: null, readOnly: true }));
    }
    const auth = { authorization: `Bearer ${TOKEN}` };
    const get = (node: ServingNode, path: string) => () =>
      fetch(`${node.url}${path}`, { headers: auth }).then((r) => r.text());
    const mcp = (node: ServingNode) => () =>
      fetch(`${node.url}/mcp`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_datasets", arguments: {} },
        }),
      }).then((r) => r.text());
    const routes: [string, (node: ServingNode) => () => Promise<string>][] = [
      ["GET /projects", (n) => get(n, "/projects")],
      ["GET /projects/notes", (n) => get(n, "/projects/notes")],
      ["GET /healthz (token)", (n) => get(n, "/healthz")],
      ["MCP list_datasets", mcp],
    ];
    const rows: string[][] = [];
    let worst = 0;
    for (const [name, make] of routes) {
      const [small, large] = await interleaved(nodes.map(make), { minRuns: 20, maxRuns: 200, maxMs: 8000 });
      const ratio = median(large) / median(small);
      worst = Math.max(worst, ratio);
      rows.push([name, fmtMs(median(small)), fmtMs(median(large)), fmtRatio(median(large), median(small))]);
    }
    // After a write the project's summary is made again once: what that one request costs.
    const again: string[] = [];
    for (const [i, node] of nodes.entries()) {
      const samples = [];
      for (let k = 0; k < 5; k++) {
        const now = new Date();
        await utimes(join(roots[i], "notes"), now, now);
        const t0 = performance.now();
        await get(node, "/projects/notes")();
        samples.push(performance.now() - t0);
      }
      again.push(fmtMs(median(samples)));
    }
    rows.push(["GET /projects/notes, first after a change", ...again, "(information)"]);
    printTable(["route", `${SIZES[0]} versions p50 ms`, `${SIZES[1]} versions p50 ms`, "ratio"], rows);
    console.log(
      `\n${
        verdict(
          worst <= TARGET,
          `summaries at ${SIZES[1]} versions within ${TARGET}x of ${SIZES[0]}: worst ${worst.toFixed(2)}x`,
        )
      }`,
    );
  } finally {
    for (const node of nodes) await node.shutdown();
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "summary_scale",
  description: "summary routes at 10 and at 10,000 versions of a project, p50 latency ratio",
  run,
};
