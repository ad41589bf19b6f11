/**
 * The routes as the reference node 0.28 answers them (origin-wire.md sections
 * 2.6 and 9): data pages with `total` and `next`, manifests with `?have=`,
 * an export that must name its version, the reference's messages for unknown
 * and empty projects, buy left to the origin, and a diff of versions without
 * provenance (pulled parts without `sources`) sent to the origin too.
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { StoreWriter } from "../support/store_fixture.ts";

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

Deno.test("data pages say total and the next offset, null after the last page", async () => {
  await withNode({}, async ({ url }) => {
    const first = await get(`${url}/projects/cities/data?limit=250`);
    assertEquals([first.body.count, first.body.total, first.body.next], [250, 600, 250]);
    assertEquals(Object.keys(first.body), ["project", "version", "count", "records", "total", "next"]);
    const last = await get(`${url}/projects/cities/data?limit=250&offset=500`);
    assertEquals([last.body.count, last.body.total, last.body.next], [100, 600, null]);
    const exact = await get(`${url}/projects/cities/data?limit=100&offset=500`);
    assertEquals([exact.body.count, exact.body.next], [100, null], "a page ending on the last record has no next");
    const past = await get(`${url}/projects/cities/data?offset=10000`);
    assertEquals([past.body.count, past.body.total, past.body.next], [0, 600, null]);
    const v1 = await get(`${url}/projects/cities/data?version=1&limit=200`);
    assertEquals([v1.body.version, v1.body.total, v1.body.next], [1, 250, 200]);
  });
});

Deno.test("manifest ?have= leaves out the URLs of parts the client holds", async () => {
  await withNode({}, async ({ url, fixture }) => {
    const parts = fixture.v2.manifest.parts as { sha256: string }[];
    const have = [parts[0].sha256, parts[2].sha256.toUpperCase(), "f".repeat(64)];
    const m = await get(`${url}/projects/cities/manifest?have=${have.join(",")}`);
    assertEquals(m.status, 200);
    assertEquals(m.body.parts.map((p: Json) => typeof p.url), ["undefined", "string", "undefined"]);
    assertEquals(m.body.parts.map((p: Json) => p.sha256), parts.map((p) => p.sha256), "every part is still listed");
    const none = await get(`${url}/projects/cities/manifest?have=`);
    assert(none.body.parts.every((p: Json) => typeof p.url === "string"));
    for (const bad of ["xyz", Array(101).fill("a".repeat(64)).join(","), `${"a".repeat(63)}`]) {
      const r = await get(`${url}/projects/cities/manifest?have=${bad}`);
      assertEquals(
        [r.status, r.body.error],
        [400, "querystring/have must list up to 100 part SHA-256 digests, comma-separated"],
      );
    }
    const hundred = await get(`${url}/projects/cities/manifest?have=${Array(100).fill("a".repeat(64)).join(",")}`);
    assertEquals(hundred.status, 200, "100 digests are allowed");
  });
});

Deno.test("export names the newest version when none is asked; the reference's messages for missing projects", async () => {
  await withNode({}, async ({ url, store }) => {
    const unnamed = await get(`${url}/projects/cities/export`);
    assertEquals([unnamed.status, unnamed.body], [400, { error: "name the version: ?version=2 is the newest" }]);
    const missing = await get(`${url}/projects/nowhere/export`);
    assertEquals([missing.status, missing.body], [404, { error: 'project "nowhere" not found on this node' }]);
    for (const path of ["/projects/nowhere", "/projects/nowhere/data", "/projects/nowhere/manifest"]) {
      const r = await get(`${url}${path}`);
      assertEquals([r.status, r.body], [404, { error: 'project "nowhere" not found on this node' }], path);
    }
    const w = new StoreWriter(store);
    try {
      await w.project("empty", { slug: "empty", title: "Nothing yet", schemaDef: { fields: [], allowExtra: true } });
    } finally {
      w.close();
    }
    for (const path of ["/projects/empty/data", "/projects/empty/manifest", "/projects/empty/export"]) {
      const r = await get(`${url}${path}`);
      assertEquals([r.status, r.body], [404, { error: "no published version yet" }], path);
    }
  });
});

Deno.test("a diff of parts without provenance is the origin's (409) and so is buying (405)", async () => {
  await withNode({}, async ({ url }) => {
    const diff = await get(`${url}/projects/cities/diff?from=1&to=2`);
    assertEquals([diff.status, diff.body], [409, {
      error: "version 2's parts carry no provenance for 100 of its records (part 3), " +
        "so this node cannot tell what was added after version 1: ask the origin",
    }]);
    for (const method of ["POST", "GET"]) {
      const buy = await get(`${url}/projects/cities/buy`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      assertEquals([buy.status, buy.body], [405, { error: "a node sells nothing: buy on the origin" }], method);
    }
  });
});
