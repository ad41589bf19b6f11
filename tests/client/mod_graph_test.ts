/**
 * The remote client's module graph: `mod.ts` and every module of
 * `src/client/` reach, statically or through `import()`, nothing but the
 * client itself, the wire shapes, the catalog of operations (data the calls
 * are drawn from), the version and Node's built-ins; never the
 * store, the node, SQL, Parquet, MCP, the local-store operations or an npm
 * package.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";

interface Graph {
  modules: { specifier: string; kind?: string; error?: string }[];
}

/** Every module `deno info` finds from `file`: static imports, type imports and `import()` alike. */
async function graphOf(file: string): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
}

const root = pathToFileURL(ROOT).href;
/** What the remote client may load: itself, the wire shapes, the catalog and the version (and `node:` built-ins). */
const ALLOWED = [
  `${root}mod.ts`,
  `${root}src/client/`,
  `${root}src/wire/`,
  `${root}src/catalog/`,
  `${root}src/version.ts`,
];

/** The modules of `graph` the remote client may not load, with why. */
function offending(graph: Graph): string[] {
  const bad: string[] = [];
  for (const m of graph.modules) {
    if (m.error) bad.push(`${m.specifier}: ${m.error}`);
    else if (m.kind === "node" && m.specifier.startsWith("node:")) continue;
    else if (m.kind !== "esm") bad.push(`${m.specifier} (${m.kind})`);
    else if (!ALLOWED.some((a) => m.specifier === a || (a.endsWith("/") && m.specifier.startsWith(a)))) {
      bad.push(m.specifier);
    }
  }
  return bad;
}

Deno.test("mod.ts (the remote client) loads nothing of the store, the node, SQL, Parquet, MCP or src/local, and no npm package", async () => {
  const graph = await graphOf(`${ROOT}mod.ts`);
  const specifiers = graph.modules.map((m) => m.specifier);
  assert(specifiers.includes(`${root}src/client/client.ts`));
  assert(specifiers.includes(`${root}src/client/export_file.ts`), "the export download is the client's");
  assertEquals(offending(graph), []);
  const heavy = specifiers.filter((s) =>
    /\/src\/(store|node|sql|parquet|mcp|local)\/|^npm:|duckdb|modelcontext/.test(s)
  );
  assertEquals(heavy, []);
});

Deno.test("every module of src/client/ imports only the client, the wire shapes, the catalog, the version and node: built-ins", async () => {
  const files = (await readdir(join(ROOT, "src", "client"))).filter((f) => f.endsWith(".ts")).sort();
  assert(files.includes("client.ts") && files.includes("http.ts"));
  const found = await Promise.all(
    files.map(async (f) => offending(await graphOf(join(ROOT, "src", "client", f))).map((s) => `${f} -> ${s}`)),
  );
  assertEquals(found.flat(), []);
});

Deno.test("src/local/mod.ts (the local store) takes the remote client and holds what it moved out of it", async () => {
  const specifiers = (await graphOf(`${ROOT}src/local/mod.ts`)).modules.map((m) => m.specifier);
  for (const file of ["pull.ts", "pull_jsonl.ts", "bundle.ts", "tar.ts", "version_trust.ts", "query.ts"]) {
    assert(specifiers.includes(`${root}src/local/${file}`), file);
  }
  assert(specifiers.includes(`${root}src/client/client.ts`));
  assert(!specifiers.some((s) => s.startsWith(`${root}src/cli/`)), "the local store does not load the command line");
});
