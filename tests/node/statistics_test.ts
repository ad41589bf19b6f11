/**
 * `GET /projects/{slug}/statistics` over HTTP: the answer, computed once and
 * kept as `v<N>/statistics.json` (a second request and a second node serve
 * it without computing again), concurrent first requests, not-found and bad
 * parameters, the token, a read-only node, and the file pruned with its
 * version.
 *
 * @module
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { prune } from "../../src/store/mod.ts";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";

const TOKEN = "statistics-token-123";

async function get(url: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json, type: res.headers.get("content-type") };
}

Deno.test("statistics over HTTP: the newest version by default, or the one asked for", async () => {
  await withNode({}, async ({ url }) => {
    const newest = await get(url, "/projects/cities/statistics");
    assertEquals([newest.status, newest.type], [200, "application/json; charset=utf-8"]);
    const body = newest.body;
    assertEquals([body.project, body.version, body.records], ["cities", 2, 600]);
    assertEquals([body.approximate, body.suggestedFacets], [["distinct", "quantiles"], []]);
    assertEquals(
      body.columns.map((c: Json) => [c.name, c.type, c.kind, c.nulls]),
      [
        ["id", "BIGINT", "number", 0],
        ["name", "VARCHAR", "string", 0],
        ["population", "BIGINT", "number", 0],
        ["score", "DOUBLE", "number", 0],
        ["note", "VARCHAR", "string", 200],
      ],
    );
    const [id, name, , , note] = body.columns;
    assertEquals([id.min, id.max, id.mean, id.histogram.length, id.histogram[19]], [0, 599, 299.5, 20, {
      from: 570,
      to: 599,
      count: 30,
    }]);
    assertEquals([name.distinct, name.topValues.length, name.lengths], [600, 10, {
      min: 6,
      max: 8,
      mean: (10 * 6 + 90 * 7 + 500 * 8) / 600,
    }]);
    assertEquals([note.distinct, note.topValues[0]], [400, { value: "n1", count: 1 }]);
    const v1 = await get(url, "/projects/cities/statistics?version=1");
    assertEquals([v1.status, v1.body.version, v1.body.records, v1.body.columns[0].max], [200, 1, 250, 249]);
    const bare = await get(url, "/projects/bare/statistics");
    assertEquals([bare.body.records, bare.body.suggestedFacets, bare.body.columns[0].type], [10, [], "INTEGER"]);
    const head = await fetch(`${url}/projects/cities/statistics`, { method: "HEAD" });
    assertEquals([head.status, await head.text()], [200, ""]);
  });
});

Deno.test("statistics over HTTP: computed once, kept beside the manifest, served again from the file", async () => {
  await withNode({}, async ({ url, store }) => {
    const file = join(store, "cities", "v2", "statistics.json");
    const first = await get(url, "/projects/cities/statistics");
    const kept = await stat(file);
    assert(JSON.parse(await readFile(file, "utf8")).statistics.records === 600);
    const second = await get(url, "/projects/cities/statistics?version=2");
    assertEquals(second.text, first.text);
    const again = await stat(file);
    assertEquals([again.ino, again.mtimeMs], [kept.ino, kept.mtimeMs], "not written again");
    assertEquals((await readdir(join(store, "cities", "v2"))).sort(), ["manifest.json", "statistics.json"]);

    // A second node over the same store reads the kept file: it does not compute (the file's word is taken).
    await writeFile(file, (await readFile(file, "utf8")).replace('"records":600', '"records":601'));
    assertEquals((await onOtherNode(store, "/projects/cities/statistics")).records, 601);
    // A file of another tag (another format or other parts) is not served: the statistics are computed again.
    await writeFile(file, (await readFile(file, "utf8")).replace('"tag":"svc-statistics-1 ', '"tag":"old '));
    assertEquals(await onOtherNode(store, "/projects/cities/statistics"), first.body);
    assertEquals(JSON.parse(await readFile(file, "utf8")).statistics, first.body, "and kept again");
  });
});

/** The answer to `path` of a node of its own over `store`. */
async function onOtherNode(store: string, path: string): Promise<Json> {
  const other = await serveNode({ store, host: "127.0.0.1", port: 0, token: null, log: () => {} });
  try {
    return (await get(other.url, path)).body;
  } finally {
    await other.shutdown();
  }
}

Deno.test("statistics over HTTP: concurrent first requests get one answer and leave one file", async () => {
  await withNode({}, async ({ url, store }) => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => get(url, `/projects/cities/statistics${i % 2 ? "?version=2" : ""}`)),
    );
    assertEquals(answers.map((a) => a.status), Array(8).fill(200));
    assertEquals(new Set(answers.map((a) => a.text)).size, 1);
    assertEquals((await readdir(join(store, "cities", "v2"))).sort(), ["manifest.json", "statistics.json"]);
  });
});

Deno.test("statistics over HTTP: a version or project not held is 404, a bad version 400", async () => {
  await withNode({}, async ({ url }) => {
    const cases: [string, number, string][] = [
      ["/projects/cities/statistics?version=9", 404, "version 9 is not on this node (newest 2, 2 versions held)"],
      ["/projects/nowhere/statistics", 404, 'project "nowhere" not found on this node'],
      ["/projects/cities/statistics?version=0", 400, "querystring/version must be >= 1"],
      ["/projects/cities/statistics?version=two", 400, "querystring/version must be integer"],
    ];
    for (const [path, status, error] of cases) {
      const res = await get(url, path);
      assertEquals([res.status, res.body.error], [status, error], path);
    }
    const invalid = await fetch(`${url}/projects/Not_A_Slug/statistics`);
    await invalid.body?.cancel();
    assertEquals(invalid.status, 404);
    const post = await fetch(`${url}/projects/cities/statistics`, { method: "POST", body: "{}" });
    await post.body?.cancel();
    assertEquals([post.status, post.headers.get("allow")], [405, "GET, HEAD"]);
  });
});

Deno.test("statistics over HTTP: the node's token is needed", async () => {
  await withNode({ token: TOKEN }, async ({ url, store }) => {
    const without = await get(url, "/projects/cities/statistics");
    assertEquals(without.status, 401);
    assertEquals((await readdir(join(store, "cities", "v2"))).includes("statistics.json"), false, "nothing computed");
    const withToken = await get(url, "/projects/cities/statistics", { authorization: `Bearer ${TOKEN}` });
    assertEquals([withToken.status, withToken.body.records], [200, 600]);
  });
});

Deno.test("statistics over HTTP: a read-only node answers but writes nothing into the store", async () => {
  await withNode({ readOnly: true }, async ({ url, store }) => {
    const first = await get(url, "/projects/cities/statistics");
    assertEquals([first.status, first.body.records], [200, 600]);
    assertEquals(await readdir(join(store, "cities", "v2")), ["manifest.json"]);
    assertEquals((await get(url, "/projects/cities/statistics")).text, first.text);
  });
});

Deno.test("statistics over HTTP: a pruned version's statistics go with it", async () => {
  await withNode({}, async ({ url, store }) => {
    assertEquals((await get(url, "/projects/cities/statistics?version=1")).status, 200);
    assertEquals((await readdir(join(store, "cities", "v1"))).sort(), ["manifest.json", "statistics.json"]);
    assertEquals((await prune(store, "cities", 1)).versions, [1]);
    assertEquals((await readdir(join(store, "cities"))).filter((n) => n.startsWith("v") || n.startsWith(".v")), [
      "v2",
    ]);
    const gone = await get(url, "/projects/cities/statistics?version=1");
    assertEquals([gone.status, gone.body.error], [404, "version 1 is not on this node (newest 2, 1 version held)"]);
  });
});
