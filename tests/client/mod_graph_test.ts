import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";

interface Dependency {
  specifier: string;
  isDynamic?: boolean;
  code?: { specifier?: string };
  type?: { specifier?: string };
}
interface Graph {
  modules: { specifier: string; dependencies?: Dependency[] }[];
}

/** Modules reachable from `root` through static imports only. */
function staticallyReached(graph: Graph, root: string): string[] {
  const byName = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of byName.get(specifier)?.dependencies ?? []) {
      if (d.isDynamic) continue;
      for (const next of [d.code?.specifier, d.type?.specifier]) if (next) walk(next);
    }
  };
  walk(root);
  return [...seen];
}

Deno.test("mod.ts (the client) loads nothing of the node, the SQL engine or DuckDB until a local query asks", async () => {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", `${ROOT}mod.ts`], stdout: "piped" })
    .output();
  assertEquals(out.code, 0);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
  const root = graph.modules.find((m) => m.specifier.endsWith("/mod.ts"))!.specifier;
  const reached = staticallyReached(graph, root);
  assert(reached.some((s) => s.endsWith("/src/client/client.ts")));
  const heavy = reached.filter((s) => /\/src\/(node|sql|parquet|store|mcp)\/|duckdb|modelcontextprotocol/.test(s));
  assertEquals(heavy, []);
  const all = graph.modules.map((m) => m.specifier);
  assert(all.some((s) => s.endsWith("/src/client/local_query.ts")), "the local query is there, behind import()");
});
