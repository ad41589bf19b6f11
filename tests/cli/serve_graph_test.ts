/**
 * What `svc serve` loads, as `deno info` sees the module graph of `cli.ts`:
 * the commands load on use (`src/cli/commands.ts` imports each by `import()`),
 * so serve's graph is `cli.ts`'s but for the other commands' branches. It
 * holds nothing of payments (`src/pay/`, viem, x402, ox), no command that
 * only the origin answers, and no npm package but DuckDB's, the MCP SDK's
 * and zod; and no module graph of the command line holds a payment package
 * (they load by a specifier built at run time, see `src/pay/packages.ts`),
 * so that Deno, which installs what a graph or lock file names before a
 * program starts, never downloads them for a node.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";

interface Dependency {
  code?: { specifier?: string };
  isDynamic?: boolean;
}

interface Graph {
  roots: string[];
  modules: { specifier: string; dependencies?: Dependency[] }[];
  redirects: Record<string, string>;
  npmPackages?: Record<string, unknown>;
}

async function graphOf(file: string): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.lock", file],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
}

const root = pathToFileURL(ROOT).href;
const COMMANDS = `${root}src/cli/commands.ts`;

/**
 * The modules reached from the graph's root, following static imports and
 * `import()`, but for `import()`s out of `src/cli/commands.ts` other than
 * `keep` (the commands not run).
 */
function reached(graph: Graph, keep: string | null): Set<string> {
  const modules = new Map(graph.modules.map((m) => [m.specifier, m]));
  const follow = (s: string) => {
    for (let i = 0; i < 10 && graph.redirects[s]; i++) s = graph.redirects[s];
    return s;
  };
  const seen = new Set<string>();
  const stack = [follow(graph.roots[0])];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const d of modules.get(at)?.dependencies ?? []) {
      const to = d.code?.specifier;
      if (!to) continue;
      if (keep !== null && at === COMMANDS && d.isDynamic && to !== keep) continue;
      stack.push(follow(to));
    }
  }
  return seen;
}

/** The npm package a graph module belongs to (`npm:/@scope/name@1.0.0/x` gives `@scope/name`), or null. */
function npmPackage(specifier: string): string | null {
  const m = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier);
  return m ? m[1] : null;
}

/** Commands only the origin (or its pay service) answers. */
const ORIGIN_ONLY = [
  "account",
  "buy",
  "claim",
  "credits",
  "edit",
  "knowledge_manage",
  "knowledge_read",
  "knowledge_social",
  "knowledge_write",
  "pay_common",
  "pull_pay",
  "purchases",
  "push",
  "report",
  "requests",
  "requests_write",
];

const PAYMENT = /^(viem|ox|abitype|@x402\/.*|@noble\/.*|@scure\/.*)$/;

Deno.test("svc serve's module graph holds nothing of payments, no origin-only command, and only DuckDB, the MCP SDK and zod from npm", async () => {
  const graph = await graphOf("cli.ts");
  const serve = reached(graph, `${root}src/cli/serve.ts`);
  for (const needed of ["src/cli/serve.ts", "src/node/node.ts", "src/sql/mod.ts", "src/mcp/mod.ts"]) {
    assert(serve.has(`${root}${needed}`), `serve reaches ${needed}`);
  }
  const local = [...serve].filter((s) => s.startsWith(root)).map((s) => s.slice(root.length));
  assertEquals(local.filter((f) => f.startsWith("src/pay/")), [], "nothing of src/pay");
  assertEquals(
    local.filter((f) => ORIGIN_ONLY.some((c) => f === `src/cli/${c}.ts`)),
    [],
    "no command only the origin answers",
  );
  const packages = new Set([...serve].map(npmPackage).filter((p) => p !== null));
  assert(packages.has("@duckdb/node-api") && packages.has("@modelcontextprotocol/sdk"), [...packages].join(" "));
  assertEquals([...packages].filter((p) => PAYMENT.test(p!)), [], "no payment package");
});

Deno.test("no module graph of the command line (every command) or of the client names a payment package", async () => {
  for (const entry of ["cli.ts", "mod.ts", "src/pay/mod.ts"]) {
    const graph = await graphOf(entry);
    const named = [
      ...graph.modules.map((m) => m.specifier),
      ...Object.keys(graph.npmPackages ?? {}).map((n) => `npm:${n}`),
    ];
    const packages = new Set(named.map(npmPackage).filter((p) => p !== null));
    assertEquals([...packages].filter((p) => PAYMENT.test(p!)), [], `${entry} names no payment package`);
  }
  const all = reached(await graphOf("cli.ts"), null);
  assert(all.has(`${root}src/pay/purchase.ts`), "the command line does reach src/pay (svc buy)");
});
