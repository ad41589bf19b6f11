/**
 * Benchmark `mcp`: `read_dataset` and `query_dataset` through the official
 * MCP SDK client (Streamable HTTP), beside the same HTTP call on the same
 * node in the same run, interleaved. Target: MCP within 1.2x of HTTP.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveNode } from "../../server.ts";
import { type Benchmark, fmtMs, fmtRatio, interleaved, median, printTable, verdict } from "./_util.ts";
import { ensureStore, PROJECTS } from "./data_pages.ts";

/** Target (issue 17, item 6): MCP's median at most this many times the HTTP call's. */
const TARGET = 1.1;
const ROUNDS = { maxRuns: 200, maxMs: 20_000, minRuns: 20 };

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const { root } = await ensureStore();
  const slug = PROJECTS[0].slug;
  const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, log: null });
  const client = new Client({ name: "svc-bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`)));
  const sql = "SELECT bucket, count(*) AS n FROM records GROUP BY bucket ORDER BY n DESC LIMIT 5";
  const cases = [
    {
      name: "read_dataset (50 records at 500,000)",
      http: () => fetch(`${serving.url}/projects/${slug}/data?limit=50&offset=500000`).then((r) => r.json()),
      mcp: () => client.callTool({ name: "read_dataset", arguments: { slug, limit: 50, offset: 500_000 } }),
    },
    {
      name: "query_dataset (group-by over 1M records)",
      http: () =>
        fetch(`${serving.url}/projects/${slug}/query`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ sql }),
        }).then((r) => r.json()),
      mcp: () => client.callTool({ name: "query_dataset", arguments: { slug, sql } }),
    },
  ];
  try {
    for (const c of cases) {
      await c.http();
      await c.mcp();
    }
    // Where read_dataset's difference goes: the same JSON-RPC call posted by plain fetch (no SDK client),
    // and both calls answered by the node's handler with no socket.
    const rpc = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "read_dataset", arguments: { slug, limit: 50, offset: 500_000 } },
    });
    const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const rawPost = () =>
      fetch(`${serving.url}/mcp`, { method: "POST", headers: mcpHeaders, body: rpc }).then((r) => r.json());
    const host = new URL(serving.url).host;
    const atHandler = (req: () => Request) => () => serving.node.handler(req()).then((r) => r.text());
    const breakdown = await interleaved([
      cases[0].http,
      rawPost,
      atHandler(() =>
        new Request(`${serving.url}/projects/${slug}/data?limit=50&offset=500000`, { headers: { host } })
      ),
      atHandler(() =>
        new Request(`${serving.url}/mcp`, { method: "POST", headers: { ...mcpHeaders, host }, body: rpc })
      ),
    ], ROUNDS);
    const rows: string[][] = [];
    const verdicts: string[] = [];
    for (const c of cases) {
      const [http, mcp] = await interleaved([c.http, c.mcp], ROUNDS);
      const ratio = median(mcp) / median(http);
      rows.push([c.name, fmtMs(median(http)), fmtMs(median(mcp)), fmtRatio(median(mcp), median(http))]);
      verdicts.push(verdict(ratio <= TARGET, `${c.name}: MCP/HTTP ${ratio.toFixed(2)}x <= ${TARGET}x`));
    }
    console.log(`\nThe same call over HTTP and through the MCP SDK client (medians, interleaved)\n`);
    printTable(["call", "HTTP ms", "MCP ms", "MCP/HTTP"], rows);
    console.log("\nread_dataset's difference, by step (medians, interleaved)\n");
    const [page, raw, pageHandler, mcpHandler] = breakdown.map(median);
    printTable(["what", "ms", "vs the HTTP page"], [
      ["HTTP page (fetch)", fmtMs(page), "1.00x"],
      ["the JSON-RPC call by plain fetch (no SDK client)", fmtMs(raw), fmtRatio(raw, page)],
      ["HTTP page at the handler (no socket)", fmtMs(pageHandler), fmtRatio(pageHandler, page)],
      ["the JSON-RPC call at the handler (no socket)", fmtMs(mcpHandler), fmtRatio(mcpHandler, page)],
    ]);
    console.log("");
    for (const v of verdicts) console.log(v);
  } finally {
    await client.close();
    await serving.shutdown();
  }
}

/** The benchmark as `mod.ts` lists it. */
export const benchmark: Benchmark = {
  name: "mcp",
  description: "read_dataset and query_dataset through the MCP SDK client vs the same HTTP call",
  run,
};
