import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { withNode } from "../support/node.ts";
import { notASlug } from "../../src/wire/mod.ts";

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

Deno.test("GET /projects lists every project with the origin's entry fields", async () => {
  await withNode({}, async ({ url }) => {
    const { status, headers, body } = await getJson(`${url}/projects`);
    assertEquals(status, 200);
    assertEquals(headers.get("content-type"), "application/json; charset=utf-8");
    assertEquals(headers.get("cache-control"), "no-store");
    assertEquals(headers.get("x-svc-node"), "1");
    assertEquals(body.projects.map((p: { slug: string }) => p.slug), ["bare", "cities"]);
    assertEquals(body.projects[1], {
      slug: "cities",
      title: "World cities",
      status: "open",
      license: "CC-BY-4.0",
      access: "public",
      visibility: "public",
      createdAt: "2026-11-01T00:00:00Z",
      stars: 0,
      contributions: 1,
      records: 600,
      latestVersion: 2,
      localVersions: 2,
      local: false,
    });
    assertEquals(body.projects[0].title, "bare");
    assertEquals(body.projects[0].license, "unknown");
  });
});

Deno.test("GET /projects/{slug} gives schema, readme, license and local versions newest first", async () => {
  await withNode({}, async ({ url, fixture }) => {
    const { status, body } = await getJson(`${url}/projects/cities`);
    assertEquals(status, 200);
    assertEquals(body.readme, "Cities of the world, one record per city.");
    assertEquals(body.localVersions, [2, 1]);
    assertEquals(body.latestVersion, 2);
    assertEquals(body.id, null);
    assertEquals(body.schemaDef.fields[0], { name: "id", type: "integer" });
    assertEquals(body.versions.map((v: { version: number }) => v.version), [2, 1]);
    const v1 = body.versions[1].manifest;
    assertEquals(v1.format, "svc-dataset-manifest/1");
    assertEquals(v1.pulledAt, undefined, "bookkeeping keys are stripped");
    assertEquals(v1.verified, undefined);
    assertEquals(v1.parts[0].url, undefined, "detail manifests carry no part URLs");
    assertEquals(
      v1.parts.map((p: { sha256: string }) => p.sha256),
      (fixture.v1.manifest.parts as { sha256: string }[]).map((p) => p.sha256),
    );
  });
});

Deno.test("a copy without project.json takes its schema from the manifest", async () => {
  await withNode({}, async ({ url }) => {
    const { body } = await getJson(`${url}/projects/bare`);
    assertEquals(body.schemaDef, {
      fields: [{ name: "k", type: "integer" }, { name: "v", type: "string" }],
      allowExtra: false,
    });
    assertEquals(body.title, "bare");
    assertEquals(body.readme, "");
  });
});

Deno.test("GET /data pages across parts in part order, null columns omitted", async () => {
  await withNode({}, async ({ url }) => {
    const { status, body } = await getJson(`${url}/projects/cities/data?limit=4&offset=248`);
    assertEquals(status, 200);
    assertEquals(body.project, "cities");
    assertEquals(body.version, 2);
    assertEquals(body.count, 4);
    assertEquals(body.records.map((r: { id: number }) => r.id), [248, 249, 250, 251]);
    assertEquals(
      body.records[1],
      { id: 249, name: "city-249", population: 249000, score: 124.5 },
      "null note left out",
    );
    assertEquals(body.records[2], { id: 250, name: "city-250", population: 250000, score: 125, note: "n250" });
  });
});

Deno.test("GET /data defaults: version latest, limit 200, offset 0; past the end is an empty page", async () => {
  await withNode({}, async ({ url }) => {
    const first = (await getJson(`${url}/projects/cities/data`)).body;
    assertEquals([first.version, first.count, first.records[0].id, first.records[199].id], [2, 200, 0, 199]);
    const v1 = (await getJson(`${url}/projects/cities/data?version=1&offset=240&limit=1000`)).body;
    assertEquals([v1.version, v1.count], [1, 10]);
    for (const offset of ["100000", "1000000000000000", String(Number.MAX_SAFE_INTEGER)]) {
      const past = await getJson(`${url}/projects/cities/data?offset=${offset}`);
      assertEquals(
        [past.status, past.body],
        [200, { project: "cities", version: 2, count: 0, records: [], total: 600, next: null }],
        offset,
      );
    }
    const all = (await getJson(`${url}/projects/cities/data?limit=1000`)).body;
    assertEquals(all.count, 600);
    assertEquals(all.records.map((r: { id: number }) => r.id), Array.from({ length: 600 }, (_, i) => i));
  });
});

Deno.test("GET /data refuses bad paging with the origin's messages", async () => {
  await withNode({}, async ({ url }) => {
    const cases: [string, number, string][] = [
      ["limit=0", 400, "querystring/limit must be >= 1 and <= 1000"],
      ["limit=1001", 400, "querystring/limit must be >= 1 and <= 1000"],
      ["limit=abc", 400, "querystring/limit must be integer"],
      ["limit=1.5", 400, "querystring/limit must be integer"],
      ["offset=-1", 400, "querystring/offset must be >= 0"],
      ["offset=9007199254740992", 400, "querystring/offset must be <= 9007199254740991"],
      ["offset=1e3", 400, "querystring/offset must be integer"],
      ["version=x", 400, "querystring/version must be integer"],
      ["version=7", 404, "version 7 is not on this node (newest 2, 2 versions held)"],
    ];
    for (const [query, status, message] of cases) {
      const r = await getJson(`${url}/projects/cities/data?${query}`);
      assertEquals([r.status, r.body], [status, { error: message }], query);
    }
    const missing = await getJson(`${url}/projects/nowhere/data`);
    assertEquals(missing.status, 404);
    assertEquals(missing.body, { error: 'project "nowhere" not found on this node' });
  });
});

Deno.test("GET /manifest points part URLs at the address the client used, without a token unsigned", async () => {
  await withNode({}, async ({ url, port, fixture }) => {
    for (const base of [url, `http://localhost:${port}`]) {
      const { status, body } = await getJson(`${base}/projects/cities/manifest?version=1`);
      assertEquals(status, 200);
      assertEquals(body.format, "svc-dataset-manifest/1");
      assertEquals([body.project, body.version], ["cities", 1]);
      assertEquals(body.urlExpiresAt, undefined);
      const parts = fixture.v1.manifest.parts as { sha256: string; bytes: number }[];
      assertEquals(
        body.parts.map((p: { url: string }) => p.url),
        parts.map((p) => `${base}/parts/cities/${p.sha256}.parquet`),
      );
      assertEquals(body.totals, fixture.v1.manifest.totals);
    }
    const latest = (await getJson(`${url}/projects/cities/manifest`)).body;
    assertEquals(latest.version, 2);
    assertEquals(latest.signature, fixture.v2.manifest.signature, "the origin's signature passes through untouched");
  });
});

Deno.test("GET /parts streams the exact bytes with ETag, immutable caching and ranges", async () => {
  await withNode({}, async ({ url, fixture }) => {
    const sha = (fixture.v1.manifest.parts as { sha256: string }[])[0].sha256;
    const onDisk = new Uint8Array(await readFile(fixture.v1.partPaths[0]));
    const partUrl = `${url}/parts/cities/${sha}.parquet`;
    const full = await fetch(partUrl);
    assertEquals(full.status, 200);
    assertEquals(full.headers.get("content-type"), "application/vnd.apache.parquet");
    assertEquals(full.headers.get("etag"), `"${sha}"`);
    assertEquals(full.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assertEquals(full.headers.get("accept-ranges"), "bytes");
    assertEquals(new Uint8Array(await full.arrayBuffer()), onDisk);

    const range = await fetch(partUrl, { headers: { range: "bytes=4-103" } });
    assertEquals(range.status, 206);
    assertEquals(range.headers.get("content-range"), `bytes 4-103/${onDisk.length}`);
    assertEquals(new Uint8Array(await range.arrayBuffer()), onDisk.subarray(4, 104));

    const suffix = await fetch(partUrl, { headers: { range: "bytes=-8" } });
    assertEquals(suffix.status, 206);
    assertEquals(new TextDecoder().decode(new Uint8Array(await suffix.arrayBuffer()).subarray(4)), "PAR1");

    const bad = await fetch(partUrl, { headers: { range: `bytes=${onDisk.length}-` } });
    assertEquals(bad.status, 416);
    assertEquals(bad.headers.get("content-range"), `bytes */${onDisk.length}`);
    assertEquals(bad.headers.get("content-type"), "application/json; charset=utf-8");
    assertEquals(await bad.json(), { error: `range not satisfiable: the file has ${onDisk.length} bytes` });

    const cached = await fetch(partUrl, { headers: { "if-none-match": `"${sha}"` } });
    assertEquals(cached.status, 304);
    await cached.body?.cancel();

    const stale = await fetch(partUrl, { headers: { range: "bytes=0-9", "if-range": '"other"' } });
    assertEquals(stale.status, 200, "If-Range that does not match sends the whole part");
    await stale.body?.cancel();

    const head = await fetch(partUrl, { method: "HEAD" });
    assertEquals([head.status, head.headers.get("content-length")], [200, String(onDisk.length)]);

    const none = await getJson(`${url}/parts/cities/${"0".repeat(64)}.parquet`);
    assertEquals(none.status, 404);
  });
});

Deno.test("GET /export streams every record of the version as gzip JSON lines", async () => {
  await withNode({}, async ({ url }) => {
    const res = await fetch(`${url}/projects/cities/export?version=2`);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/gzip");
    assertEquals(res.headers.get("content-disposition"), 'attachment; filename="cities-v2.jsonl.gz"');
    const lines = new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer()))).trimEnd().split("\n");
    assertEquals(lines.length, 600);
    assertEquals(JSON.parse(lines[599]), { id: 599, name: "city-599", population: 599000, score: 299.5, note: "n599" });
    assertEquals(lines.map((l) => JSON.parse(l).id), Array.from({ length: 600 }, (_, i) => i));
    const missing = await getJson(`${url}/projects/cities/export`);
    assertEquals(missing.status, 400);
    assertEquals(missing.body, { error: "name the version: ?version=2 is the newest" });
  });
});

Deno.test("GET /healthz reports the store without a token set", async () => {
  await withNode({}, async ({ url, store }) => {
    const { status, body } = await getJson(`${url}/healthz`);
    assertEquals(status, 200);
    assertEquals(body.ok, true);
    assertEquals(body.node, true);
    assertEquals(body.auth, "none");
    assertEquals(body.store, store);
    assertEquals([body.projects, body.versions], [2, 3]);
    assertEquals(body.incomplete, []);
    assertMatch(body.since, /^\d{4}-\d\d-\d\dT/);
  });
});

Deno.test("unknown paths answer 404 and writes where the node takes none 405, as JSON", async () => {
  await withNode({}, async ({ url }) => {
    for (
      const path of ["/nope", "/projects/", "/projects/cities/nope", "/projects/Cities", "/earnings", "/mcp/x", "/ui/x"]
    ) {
      const r = await getJson(`${url}${path}`);
      assertEquals(r.status, 404, path);
      assert(typeof r.body.error === "string" && r.body.error.length > 0);
    }
    const badSlug = await getJson(`${url}/projects/Cities/data`);
    assertEquals([badSlug.status, badSlug.body.error], [404, `not found: ${notASlug("Cities")}`]);
    assertMatch(badSlug.body.error, /a slug is 3 to 60 lowercase letters, digits and hyphens/);
    const missing = await getJson(`${url}/projects/citiez`);
    assertEquals([missing.status, missing.body.error], [404, 'project "citiez" not found on this node']);
    const post = await getJson(`${url}/projects/cities/data`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    assertEquals(post.status, 405);
    assertEquals(post.headers.get("allow"), "GET, HEAD");
    const push = await getJson(`${url}/projects/cities/push`, {
      method: "POST",
      body: "x",
      headers: { "content-type": "application/gzip" },
    });
    assertEquals(push.status, 405);
    assertMatch(push.body.error, /contribute/);
  });
});

Deno.test("one log line per request", async () => {
  await withNode({}, async ({ url, log }) => {
    await (await fetch(`${url}/projects`)).body?.cancel();
    await (await fetch(`${url}/nope`)).body?.cancel();
    assertEquals(log.length, 2);
    assertMatch(log[0], /^\d{4}-.*Z 127\.0\.0\.1 GET \/projects 200 [\d.]+ms$/);
    assertMatch(log[1], / GET \/nope 404 /);
  });
});
