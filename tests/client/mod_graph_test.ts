import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";

Deno.test("mod.ts (the client) loads nothing of the node, the SQL engine or DuckDB", async () => {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", `${ROOT}mod.ts`], stdout: "piped" })
    .output();
  assertEquals(out.code, 0);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: { specifier: string }[] };
  const specifiers = graph.modules.map((m) => m.specifier);
  assert(specifiers.some((s) => s.endsWith("/src/client/client.ts")));
  const heavy = specifiers.filter((s) => /\/src\/(node|sql|parquet|store|mcp)\/|duckdb|modelcontextprotocol/.test(s));
  assertEquals(heavy, []);
});
