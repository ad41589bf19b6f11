/**
 * What `svc serve` loads, as `deno info` sees the module graph of `cli.ts`:
 * the commands load on use (`src/cli/commands.ts` imports each by
 * `import()`, and the one `svc` command, `src/svc/main.ts`, the origin's
 * commands by `import()` of `@svc/origin/cli`), so serve's graph is
 * `cli.ts`'s but for the other commands' branches. It holds no module of the
 * origin's package (`src/origin/`: its client, its wire shapes, payments,
 * its commands), nothing of viem, x402 or ox, and no npm package but
 * DuckDB's, the MCP SDK's and zod; and no module graph of the command line
 * holds a payment package (they load by a specifier built at run time, see
 * `src/origin/pay/packages.ts`), so that Deno, which installs what a graph
 * or lock file names before a program starts, never downloads them for a
 * node.
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
const MAIN = `${root}src/svc/main.ts`;

/**
 * The modules reached from the graph's root, following static imports and
 * `import()`, but for `import()`s out of `src/cli/commands.ts` other than
 * `keep` and out of `src/svc/main.ts` (the commands not run).
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
      if (keep !== null && d.isDynamic && ((at === COMMANDS && to !== keep) || at === MAIN)) continue;
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

const PAYMENT = /^(viem|ox|abitype|@x402\/.*|@noble\/.*|@scure\/.*)$/;

Deno.test("svc serve's module graph holds no module of the origin's package, nothing of payments, and only DuckDB, the MCP SDK and zod from npm", async () => {
  const graph = await graphOf("cli.ts");
  const serve = reached(graph, `${root}src/cli/serve.ts`);
  for (const needed of ["src/cli/serve.ts", "src/node/node.ts", "src/sql/mod.ts", "src/mcp/mod.ts"]) {
    assert(serve.has(`${root}${needed}`), `serve reaches ${needed}`);
  }
  const local = [...serve].filter((s) => s.startsWith(root)).map((s) => s.slice(root.length));
  assertEquals(local.filter((f) => f.startsWith("src/origin/")), [], "nothing of the origin's package");
  const packages = new Set([...serve].map(npmPackage).filter((p) => p !== null));
  assert(packages.has("@duckdb/node-api") && packages.has("@modelcontextprotocol/sdk"), [...packages].join(" "));
  assertEquals([...packages].filter((p) => PAYMENT.test(p!)), [], "no payment package");
});

Deno.test("no module graph of the command line (every command) or of the client names a payment package", async () => {
  for (const entry of ["cli.ts", "mod.ts", "src/origin/pay/mod.ts"]) {
    const graph = await graphOf(entry);
    const named = [
      ...graph.modules.map((m) => m.specifier),
      ...Object.keys(graph.npmPackages ?? {}).map((n) => `npm:${n}`),
    ];
    const packages = new Set(named.map(npmPackage).filter((p) => p !== null));
    assertEquals([...packages].filter((p) => PAYMENT.test(p!)), [], `${entry} names no payment package`);
  }
  const all = reached(await graphOf("cli.ts"), null);
  assert(all.has(`${root}src/origin/pay/purchase.ts`), "the command line does reach src/origin/pay (svc buy)");
});

Deno.test("the node's package loads nothing of the origin's: server.ts, mod.ts and src/local name no module of src/origin/", async () => {
  for (const entry of ["server.ts", "mod.ts", "src/local/mod.ts"]) {
    const modules = (await graphOf(entry)).modules.map((m) => m.specifier);
    assert(modules.length > 10, `${entry}'s graph is read`);
    assertEquals(modules.filter((s) => s.startsWith(`${root}src/origin/`)), [], `${entry} names nothing of src/origin`);
  }
  const all = reached(await graphOf("cli.ts"), null);
  for (const file of ["src/origin/cli/commands.ts", "src/origin/client/origin_client.ts"]) {
    assert(all.has(`${root}${file}`), `the one svc command does reach ${file} (on use)`);
  }
});
