/**
 * An agent script in a folder outside the repository, with no deno.json and
 * no import map, imports the repository's `mod.ts` by its file URL: it must
 * type-check (`deno check`) and run (`deno run`, network to the node and the
 * folder only) against a real node. Outside the workspace Deno resolves no
 * bare specifier through the repository's import map, so this holds only
 * while the remote client's graph has no npm package in it.
 *
 * @module
 */
import { gunzipSync } from "node:zlib";
import { readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { withNode } from "../support/node.ts";
import { tempDir } from "../support/store_fixture.ts";

/** The repository's `mod.ts`, as the agent names it. */
const MOD_URL = pathToFileURL(join(ROOT, "mod.ts")).href;

const AGENT = `import { Client, NotFoundError, type ProjectEntry, type QueryAnswer } from "${MOD_URL}";

const [baseUrl, out] = Deno.args;
const client = new Client({ baseUrl, apiKey: "any" });
const projects: ProjectEntry[] = await client.projects();
const page = await client.data("cities", { limit: 2, offset: 249 });
const answer: QueryAnswer = await client.query("cities", "SELECT count(*) AS n FROM records", { version: 1 });
let missing = "";
try {
  await client.project("no-such-project");
} catch (e) {
  if (e instanceof NotFoundError) missing = e.name;
}
const exported = await client.exportFile("cities", { version: 1, out });
console.log(JSON.stringify({
  slugs: projects.map((p) => p.slug).sort(),
  version: page.version,
  ids: page.records.map((r) => r.id),
  n: answer.rows[0][0],
  missing,
  exported: exported.records,
}));
`;

async function deno(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/** Whether a Deno config file sits in `dir` or any folder above it. */
async function configAbove(dir: string): Promise<string | null> {
  for (let at = dir;; at = dirname(at)) {
    for (const name of ["deno.json", "deno.jsonc", "package.json", "import_map.json"]) {
      if (await stat(join(at, name)).catch(() => null)) return join(at, name);
    }
    if (dirname(at) === at) return null;
  }
}

Deno.test("an agent script outside the repository imports mod.ts by file URL, type-checks and runs against a node", async () => {
  const outside = await tempDir("svc-outside-agent-");
  try {
    const dir = await realpath(outside.path);
    assert(!dir.startsWith(await realpath(ROOT)), `${dir} is outside ${ROOT}`);
    assertEquals(await configAbove(dir), null, "no config or import map applies to the agent's folder");
    const agent = join(dir, "agent.ts");
    await writeFile(agent, AGENT);

    const info = await deno(["info", "--json", agent], dir);
    assertEquals(info.code, 0, info.stderr);
    const graph = JSON.parse(info.stdout) as { modules: { specifier: string; kind?: string }[]; npmPackages: object };
    assertEquals(graph.npmPackages, {}, "no npm package in the agent's graph");
    assertEquals(graph.modules.filter((m) => m.kind !== "esm" && m.kind !== "node").map((m) => m.specifier), []);

    const checked = await deno(["check", agent], dir);
    assertEquals(checked.code, 0, checked.stderr);

    await withNode({}, async (node) => {
      const out = join(dir, "cities-v1.jsonl.gz");
      const ran = await deno(
        [
          "run",
          `--allow-net=127.0.0.1:${node.port}`,
          `--allow-read=${dir}`,
          `--allow-write=${dir}`,
          agent,
          node.url,
          out,
        ],
        dir,
      );
      assertEquals(ran.code, 0, ran.stderr);
      assertEquals(JSON.parse(ran.stdout), {
        slugs: ["bare", "cities"],
        version: 2,
        ids: [249, 250],
        n: 250,
        missing: "NotFoundError",
        exported: 250,
      });
      const lines = new TextDecoder().decode(gunzipSync(await readFile(out))).trimEnd().split("\n");
      assertEquals(lines.length, 250);
    });
  } finally {
    await outside.cleanup();
  }
});
