import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { runCli, spawnCli } from "../support/cli_process.ts";
import { withNode } from "../support/node.ts";
import { citySql, StoreWriter } from "../support/store_fixture.ts";

Deno.test("svc projects: a table by default, the API's answer with --json, one project's detail with SLUG", async () => {
  await withNode({}, async ({ url }) => {
    const base = ["--base-url", url, "--api-key", "k"];
    const table = await runCli(["projects", ...base]);
    assertEquals(table.code, 0, table.stderr);
    assertEquals(
      table.stdout,
      "slug    title         version  records  license    access\n" +
        "------  ------------  -------  -------  ---------  ----------------\n" +
        "bare    bare                1       10  unknown    public on origin\n" +
        "cities  World cities        2      600  CC-BY-4.0  public on origin\n",
    );
    const json = await runCli(["--base-url", url, "projects", "--json"]);
    const api: Json = await (await fetch(`${url}/projects`)).json();
    assertEquals(JSON.parse(json.stdout), api, "--json is the raw API answer");

    const detail = await runCli(["projects", "cities", ...base]);
    assertEquals(detail.code, 0, detail.stderr);
    assertMatch(detail.stdout, /^cities: World cities\n {2}license {5}CC-BY-4\.0\n/);
    assertMatch(detail.stdout, /versions {4}2 versions held, newest 2\n/);
    assertMatch(
      detail.stdout,
      /schema {6}id integer, name string, population integer, score number, note string \(optional\)/,
    );
    assertMatch(detail.stdout, /\n\n {2}Cities of the world, one record per city\.\n$/);
    const detailJson = await runCli(["projects", "cities", "--json", ...base]);
    assertEquals(JSON.parse(detailJson.stdout), await (await fetch(`${url}/projects/cities`)).json());
  });
});

Deno.test("svc projects and svc data: unknown projects are a clear 404, hostile slugs a usage error", async () => {
  await withNode({}, async ({ url }) => {
    const base = ["--base-url", url, "--api-key", "k"];
    for (const args of [["projects", "nowhere"], ["data", "nowhere"]]) {
      const run = await runCli([...args, ...base]);
      assertEquals(
        [run.code, run.stderr],
        [1, `error: project "nowhere" not found on this node (HTTP 404) — asked ${url}\n`],
        args[0],
      );
    }
    const gone = await runCli(["data", "cities@9", ...base]);
    assertEquals(
      gone.stderr,
      `error: version 9 is not on this node (newest 2, 2 versions held) (HTTP 404) — asked ${url}\n`,
    );
    for (const slug of ["../etc", "cities/../../x", "a", "%2e%2e", "Cities", "cities@0", "cities@x"]) {
      for (const command of ["projects", "data"]) {
        const run = await runCli([command, slug, ...base]);
        assertEquals(run.code, 2, `${command} ${slug}`);
        assertMatch(
          run.stderr,
          /^error: ".*" is not a (project slug: a slug is 3 to 60 lowercase letters, .*|version number)\n$/,
        );
      }
    }
    for (const args of [["data"], ["data", "cities", "--limit", "-1"], ["data", "cities", "--offset", "x"]]) {
      assertEquals((await runCli([...args, ...base])).code, 2, args.join(" "));
    }
    const down = await runCli(["projects", "--base-url", "http://127.0.0.1:9"]);
    const keyless = await runCli(["data", "cities", "--limit", "1", "--base-url", url]);
    assertEquals([keyless.code, keyless.stdout.split("\n").length], [0, 2], "pages are public: no key needed");
    assertEquals(down.code, 1);
    assertMatch(down.stderr, /^error: cannot reach http:\/\/127\.0\.0\.1:9: /);
  });
});

Deno.test("svc data prints JSON lines: a page, every record with --limit 0, one version throughout, big integers exact", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("big", 1, {
      parts: [{ sql: "SELECT 9007199254740993::BIGINT AS id, 'far' AS name UNION ALL SELECT 1, 'near' ORDER BY 2" }],
    });
    w.close();
    const base = ["--base-url", url, "--api-key", "k"];
    const first = await runCli(["data", "cities", ...base]);
    assertEquals(first.code, 0, first.stderr);
    const lines = first.stdout.trimEnd().split("\n");
    assertEquals(lines.length, 200, "the node's default page");
    assertEquals(JSON.parse(lines[1]), { id: 1, name: "city-1", population: 1000, score: 0.5, note: "n1" });

    const all = await runCli(["data", "cities@2", "--limit", "0", ...base]);
    const ids = all.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).id);
    assertEquals(ids, Array.from({ length: 600 }, (_, i) => i), "600 records over pages of 1000");
    const slice = await runCli(["data", "cities", "--version", "1", "--offset", "248", "--limit", "5", ...base]);
    assertEquals(slice.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).id), [248, 249], "v1 ends at 249");

    const big = await runCli(["data", "big", ...base]);
    assertEquals(big.stdout, '{"id":9007199254740993,"name":"far"}\n{"id":1,"name":"near"}\n');
    const json = await runCli(["data", "big", "--json", ...base]);
    assertEquals(
      json.stdout,
      '{"project":"big","version":1,"count":2,"records":[{"id":9007199254740993,"name":"far"},{"id":1,"name":"near"}]}\n',
    );
  });
});

Deno.test("svc data | head: a reader that goes away ends svc data quietly, exit 0", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("many", 1, { parts: [{ sql: citySql(0, 60_000) }] });
    w.close();
    const child = spawnCli(["data", "many", "--limit", "0", "--base-url", url, "--api-key", "k"], { piped: true });
    child.stdin.close();
    const reader = child.stdout.getReader();
    await reader.read();
    await reader.cancel();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assertEquals([status.code, stderr], [0, ""]);
  });
});
