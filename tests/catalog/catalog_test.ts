/**
 * The catalog holds: every operation is routed on its path for its method,
 * labelled by its pattern, with its cost and standing; every operation has
 * its row in docs/api.md (and docs/mcp.md when it is a tool, the command's
 * section in docs/cli.md when it has one) and at least one test naming its
 * path; every tool and command has a test calling it; Delta Sharing's
 * operations are routed under their mount and named in docs/delta-sharing.md.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Operation, operations, SHARING_OPERATIONS, SHARING_PREFIX } from "../../src/catalog/mod.ts";
import { NODE_ROUTER } from "../../src/node/routes/table.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { ROOT } from "../support/cli_process.ts";
import { tsFiles } from "../support/import_graph.ts";

const SAMPLES: Readonly<Record<string, string>> = {
  slug: "cities",
  id: "3f0c6a0e-8d4b-4b57-9a43-1d2b5a8e0c11",
  file: `${"ab".repeat(32)}.parquet`,
  share: "svc",
  schema: "default",
  table: "cities",
};

/** `path` with each parameter given a sample segment. */
function sampled(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => SAMPLES[name] ?? "x");
}

Deno.test("every operation is routed on its path for its method, labelled by its pattern, with its cost and standing", () => {
  const all = operations();
  assert(all.length >= 16, "the catalog is read");
  for (const op of all) {
    const matched = NODE_ROUTER.find(sampled(op.path));
    assert(matched !== null, `${op.name}: ${op.path} is routed`);
    assertEquals(matched.route.template, op.path, op.name);
    assert(matched.route.methods.includes(op.method), `${op.name} takes ${op.method}`);
    if (op.method === "GET") assert(matched.route.methods.includes("HEAD"), `${op.name} takes HEAD with GET`);
    assertEquals(matched.route.costly, op.costly, `${op.name} costly`);
    assertEquals(matched.route.public, op.public, `${op.name} public`);
  }
  const names = all.map((o) => o.name);
  assertEquals(names.length, new Set(names).size, "operation names are unique");
  const tools = all.flatMap((o) => o.tool ? [o.tool.name] : []);
  assertEquals(tools.length, new Set(tools).size, "tool names are unique");
});

Deno.test("Delta Sharing's operations are routed under their mount, whose failures are written as the protocol's", async () => {
  for (const op of SHARING_OPERATIONS) {
    const path = SHARING_PREFIX + sampled(op.path);
    const matched = NODE_ROUTER.find(path);
    assert(matched !== null, `${op.name}: ${path}`);
    assertEquals(matched.route.template, SHARING_PREFIX + op.path);
    for (const method of op.methods) assert(matched.route.methods.includes(method), `${op.name} ${method}`);
    assertEquals([matched.route.public, matched.route.costly], [true, true], op.name);
  }
  const mount = NODE_ROUTER.mountOf(`${SHARING_PREFIX}/nowhere`);
  assert(mount !== null);
  const answer = await mount.encodeError(new Error("x"), 404, "no such share", {}).json();
  assertEquals(answer, { errorCode: "RESOURCE_DOES_NOT_EXIST", message: "no such share" });
  assertEquals(NODE_ROUTER.mountOf("/projects/cities/data"), null);
});

/** The rows of the table under `## heading` of the markdown `text`. */
function tableRows(text: string, heading: string): string[] {
  const at = text.indexOf(`\n${heading}\n`);
  assert(at >= 0, `${heading} is there`);
  const rest = text.slice(at + heading.length + 2);
  const end = rest.search(/\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).split("\n").filter((l) => l.startsWith("| `"));
}

Deno.test("every operation has its row in docs/api.md, every tool its row in docs/mcp.md, every command its section in docs/cli.md", async () => {
  const [api, mcp, cli, sharing] = await Promise.all(
    ["api.md", "mcp.md", "cli.md", "delta-sharing.md"].map((f) => readFile(join(ROOT, "docs", f), "utf8")),
  );
  const rows = tableRows(api, "## Operations");
  for (const op of operations()) {
    const row = rows.find((r) => r.startsWith(`| \`${op.name}\` `));
    assert(row !== undefined, `docs/api.md has a row for ${op.name}`);
    assert(row.includes(`\`${op.method} ${op.path}\``), `${op.name}'s row names ${op.method} ${op.path}`);
    if (op.tool) {
      assert(row.includes(`\`${op.tool.name}\``), `${op.name}'s row names its tool`);
      assert(mcp.includes(`\n| \`${op.tool.name}\` `), `docs/mcp.md has a row for ${op.tool.name}`);
    }
    if (op.command) {
      assert(row.includes(`\`svc ${op.command.name}\``), `${op.name}'s row names its command`);
      assert(
        new RegExp(`\\n## svc ${op.command.name}\\b|\\n## svc \\w+ and svc ${op.command.name}\\b`).test(cli),
        `docs/cli.md has a section for svc ${op.command.name}`,
      );
    }
  }
  assertEquals(rows.length, operations().length, "no row for an operation the catalog does not hold");
  for (const op of SHARING_OPERATIONS) {
    const tail = op.path.split("/").filter((s) => s && !s.startsWith("{")).pop()!;
    assert(sharing.includes(`/${tail}`), `docs/delta-sharing.md names ${op.name} (/${tail})`);
  }
});

/** A pattern matching `path` as a test writes it: each parameter any segment or a template expression. */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{[A-Za-z]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(parts.join("(?:[^/\"'`\\s?]+|\\$\\{[^}]+\\})") + "(?![\\w/-])");
}

/** The text of every test file (not the helpers, not the documents' tests, not this one). */
async function testTexts(): Promise<{ file: string; text: string }[]> {
  const files = (await tsFiles("tests")).filter((f) =>
    f.endsWith("_test.ts") && !f.startsWith("tests/catalog/") && !f.startsWith("tests/docs/")
  );
  return await Promise.all(files.map(async (file) => ({ file, text: await readFile(join(ROOT, file), "utf8") })));
}

function tested(op: Operation, tests: { file: string; text: string }[]): boolean {
  const path = pathPattern(op.path);
  return tests.some(({ text }) => path.test(text) && (op.method === "GET" || text.includes(`"${op.method}"`)));
}

Deno.test("every operation has a test naming its path (and its method, when not GET); every tool and command a test calling it", async () => {
  const tests = await testTexts();
  assert(tests.length > 100, "the tests are read");
  for (const op of operations()) {
    assert(tested(op, tests), `a test names ${op.method} ${op.path} (${op.name})`);
    if (op.tool) {
      const call = `name: "${op.tool.name}"`;
      assert(tests.some(({ text }) => text.includes(call)), `a test calls the tool ${op.tool.name}`);
    }
    if (op.command) {
      const name = `"${op.command.name}"`;
      assert(
        tests.some(({ text }) => text.includes(`runCli([${name}`) || text.includes(`[${name},`)),
        `a test runs svc ${op.command.name}`,
      );
    }
  }
  assert(
    !tested({ ...operations()[0], path: "/projects/{slug}/nowhere" }, tests),
    "a path no test names is found untested",
  );
});
