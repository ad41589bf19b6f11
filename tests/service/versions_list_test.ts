/**
 * `GET /projects/{slug}/versions?limit=&before=`: a project's versions,
 * newest first, a page at a time, over HTTP, through the MCP SDK client
 * (`list_versions`, its pages narrower) and as `svc versions SLUG`; and the
 * page of a project holding a hundred thousand versions read from its runs.
 *
 * @module
 */
import { heldVersionsOf } from "../../src/store/held_versions.ts";
import { versionPage } from "../../src/service/projects.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { runCli } from "../support/cli_process.ts";
import { batch, NOTES, post } from "../support/local_project.ts";
import { withNode } from "../support/node.ts";
import { mcpClient } from "../mcp/_client.ts";

/** A node holding the local project `notes` with versions 1 to `count` (ten records each). */
async function withVersions(count: number, fn: (url: string) => Promise<void>): Promise<void> {
  await withNode({}, async ({ url }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    for (let i = 0; i < count; i++) {
      const merged = await post(url, "/projects/notes/contribute", batch(i));
      assertEquals([merged.status, merged.body.mergedVersion], [201, i + 1]);
    }
    await fn(url);
  });
}

async function getJson(url: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

Deno.test("GET /projects/{slug}/versions: newest first, paged with before and next, each version's time, records and parts", async () => {
  await withVersions(5, async (url) => {
    const first = await getJson(`${url}/projects/notes/versions?limit=2`);
    assertEquals(first.status, 200);
    assertEquals([first.body.project, first.body.count, first.body.next], ["notes", 5, 4]);
    assertEquals(first.body.versions.map((v: Json) => v.version), [5, 4]);
    for (const v of first.body.versions) {
      assertEquals(v.records, v.version * 10, `v${v.version}`);
      assert(Number.isInteger(v.parts) && v.parts >= 1, `v${v.version} has its parts`);
      assert(!Number.isNaN(Date.parse(v.createdAt)), v.createdAt);
    }
    const second = await getJson(`${url}/projects/notes/versions?limit=2&before=4`);
    assertEquals([second.body.versions.map((v: Json) => v.version), second.body.next], [[3, 2], 2]);
    const last = await getJson(`${url}/projects/notes/versions?limit=2&before=2`);
    assertEquals([last.body.versions.map((v: Json) => v.version), last.body.next], [[1], null]);
    const all = await getJson(`${url}/projects/notes/versions`);
    assertEquals([all.body.versions.length, all.body.next], [5, null], "the default page holds all five");
    const head = await fetch(`${url}/projects/notes/versions`, { method: "HEAD" });
    assertEquals([head.status, await head.text()], [200, ""]);
  });
});

Deno.test("GET /projects/{slug}/versions: bounds with the origin's words, a project not there, a slug that is none", async () => {
  await withVersions(1, async (url) => {
    for (
      const [query, message] of [
        ["limit=0", "querystring/limit must be >= 1 and <= 1000"],
        ["limit=1001", "querystring/limit must be >= 1 and <= 1000"],
        ["limit=ten", "querystring/limit must be integer"],
        ["before=0", "querystring/before must be >= 1"],
      ]
    ) {
      const bad = await getJson(`${url}/projects/notes/versions?${query}`);
      assertEquals([bad.status, bad.body.error], [400, message], query);
    }
    const missing = await getJson(`${url}/projects/nowhere/versions`);
    assertEquals([missing.status, missing.body.error], [404, 'project "nowhere" not found on this node']);
    const named = await getJson(`${url}/projects/Notes/versions`);
    assertEquals(named.status, 404);
    assertMatch(named.body.error, /is not a project slug/);
    const post = await fetch(`${url}/projects/notes/versions`, { method: "POST", body: "{}" });
    assertEquals([post.status, post.headers.get("allow")], [405, "GET, HEAD"]);
    await post.body?.cancel();
  });
});

Deno.test("MCP list_versions: the route's answer, its pages narrower (1-100, default 20)", async () => {
  await withVersions(3, async (url) => {
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const listed = (tools as Json[]).find((t) => t.name === "list_versions");
      assertEquals(listed.annotations.readOnlyHint, true);
      assertEquals([listed.inputSchema.properties.limit.maximum, listed.inputSchema.required], [100, ["slug"]]);
      assertMatch(listed.inputSchema.properties.limit.description, /1-100 \(default 20\)/);
      const answer: Json = await client.callTool({ name: "list_versions", arguments: { slug: "notes", limit: 2 } });
      const route = await getJson(`${url}/projects/notes/versions?limit=2`);
      assertEquals(answer.structuredContent, route.body);
      const older: Json = await client.callTool({ name: "list_versions", arguments: { slug: "notes", before: 2 } });
      assertEquals(older.structuredContent.versions.map((v: Json) => v.version), [1]);
      await assertRejects(
        () => client.callTool({ name: "list_versions", arguments: { slug: "notes", limit: 101 } }),
        /-32602: list_versions: argument limit must be at most 100$/,
      );
      const missing: Json = await client.callTool({ name: "list_versions", arguments: { slug: "nowhere" } });
      assertEquals(missing.isError, true);
    } finally {
      await client.close();
    }
  });
});

Deno.test("svc versions SLUG: a table newest first and how to ask for the next page; --json the answer; errors", async () => {
  await withVersions(3, async (url) => {
    const env = { SVC_BASE_URL: url };
    const page = await runCli(["versions", "notes", "--limit", "2"], env);
    assertEquals(page.code, 0, page.stderr);
    const lines = page.stdout.trimEnd().split("\n");
    assertMatch(lines[0], /^version +createdAt +records +parts$/);
    assertMatch(lines[2], /^ *3 +\d{4}-\d\d-\d\dT\S+ +30 +\d+$/);
    assertMatch(lines[3], /^ *2 +\S+ +20 +\d+$/);
    assertEquals(page.stderr, "more: svc versions notes --before 2\n");
    const json = await runCli(["versions", "notes", "--before", "2", "--json"], env);
    assertEquals(json.code, 0, json.stderr);
    assertEquals(JSON.parse(json.stdout).versions.map((v: Json) => v.version), [1]);
    const help = await runCli(["versions", "--help"]);
    assertEquals(help.code, 0);
    assertMatch(help.stdout, /^Usage: svc versions SLUG \[options\]\n/);
    assertMatch(help.stdout, /--limit N +Versions in the page, 1-1000 \(default 100\)\./);
    const bad = await runCli(["versions", "notes", "--limit", "0"], env);
    assertEquals([bad.code, bad.stderr], [2, 'error: --limit must be a whole number from 1 to 1000, not "0"\n']);
    const none = await runCli(["versions"], env);
    assertEquals([none.code, none.stderr], [2, "error: svc versions takes SLUG\n"]);
    const missing = await runCli(["versions", "nowhere"], env);
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /^error: project "nowhere" not found on this node/);
  });
});

Deno.test("a page of a hundred thousand versions costs the page: read from the runs, never the whole list", () => {
  const held = heldVersionsOf(Array.from({ length: 100_000 }, (_, i) => i + 1));
  assertEquals(held.runs, [[1, 100_000]]);
  const started = performance.now();
  for (let i = 0; i < 1000; i++) versionPage(held, 100, 50_000);
  assert(performance.now() - started < 1000, "a thousand pages in under a second");
  assertEquals(versionPage(held, 3, null), { numbers: [100_000, 99_999, 99_998], next: 99_998 });
  assertEquals(versionPage(held, 3, 3), { numbers: [2, 1], next: null });
  const gaps = heldVersionsOf([1, 2, 3, 7, 8, 9]);
  assertEquals(versionPage(gaps, 4, null), { numbers: [9, 8, 7, 3], next: 3 });
  assertEquals(versionPage(gaps, 4, 7), { numbers: [3, 2, 1], next: null });
  assertEquals(versionPage(heldVersionsOf([]), 5, null), { numbers: [], next: null });
});
