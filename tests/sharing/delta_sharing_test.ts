/**
 * Delta Sharing against a real node over sockets, read by a client written
 * from PROTOCOL.md (tests/support/delta_sharing_client.ts): listings and
 * paging, versions and time travel, metadata, files read with DuckDB equal
 * to the node's data pages, both answer formats, recipients' tokens and
 * what they may not do, and the protocol's errors.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { DeltaSharingClient, SharingClientError } from "../support/delta_sharing_client.ts";
import { withNode } from "../support/node.ts";
import { post } from "../support/local_project.ts";
import { citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import { addRecipient, removeRecipient } from "../../src/sharing/mod.ts";

const TOKEN = "node-token-for-sharing-tests";

/** The protocol error `fn` fails with. */
async function refused(fn: () => Promise<unknown>): Promise<SharingClientError> {
  const e = await assertRejects(fn);
  if (!(e instanceof SharingClientError)) throw new Error(`not the protocol's error: ${e.message}`);
  return e;
}

async function parquetRows(bytes: Uint8Array, columns = "id, name, population"): Promise<Json[]> {
  const dir = await tempDir("svc-ds-read-");
  try {
    const file = join(dir.path, "f.parquet");
    await writeFile(file, bytes);
    const db = await DuckDBInstance.create(":memory:");
    const c = await db.connect();
    try {
      const reader = await c.runAndReadAll(`SELECT ${columns} FROM read_parquet('${file}')`);
      return reader.getRowObjectsJson() as Json[];
    } finally {
      c.closeSync();
      db.closeSync();
    }
  } finally {
    await dir.cleanup();
  }
}

Deno.test("listings: one share, one schema, the projects with a version as tables, paged exactly", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const shares = await client.listShares();
    assertEquals(shares.map((s) => s.name), ["svc"]);
    assertEquals((await client.getShare("SVC")).name, "svc");
    assertEquals((await client.listSchemas("svc")).map((s) => [s.name, s.share]), [["default", "svc"]]);
    const tables = await client.listTables("svc", "DEFAULT");
    assertEquals(tables.map((t) => t.name), ["bare", "cities"]);
    assert(tables.every((t) => t.share === "svc" && t.schema === "default" && typeof t.id === "string"));
    assertEquals((await client.listAllTables("svc", 1)).map((t) => t.name), ["bare", "cities"]);
    const first = await client.page("/shares/svc/all-tables", 1);
    assertEquals(first.items.length, 1);
    assert(first.next !== null);
    const none = await client.page("/shares/svc/all-tables", 0);
    assertEquals(none.items.length, 0);
    // a page token of another listing is refused
    const err = await refused(() => client.page("/shares/svc/schemas/default/tables", 1, first.next!));
    assertEquals([err.status, err.errorCode], [400, "INVALID_PARAMETER_VALUE"]);
    for (const bad of ["-1", "x", "99999999999"]) {
      const res = await client.raw("GET", `/shares?maxResults=${bad}`);
      assertEquals(res.status, 400, bad);
      assertEquals((await res.json()).errorCode, "INVALID_PARAMETER_VALUE");
    }
    for (
      const path of [
        "/shares/nope",
        "/shares/svc/schemas/nope/tables",
        "/shares/svc/schemas/default/tables/nope/version",
      ]
    ) {
      const res = await client.raw("GET", path);
      assertEquals(res.status, 404, path);
      assertEquals((await res.json()).errorCode, "RESOURCE_DOES_NOT_EXIST", path);
    }
    const unknown = await client.raw("GET", "/nothing/here");
    assertEquals([unknown.status, (await unknown.json()).errorCode], [404, "RESOURCE_DOES_NOT_EXIST"]);
  });
});

Deno.test("query: the newest version's files, read with DuckDB, are its data pages record for record", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    assertEquals(await client.tableVersion("svc", "default", "Cities"), 2);
    assertEquals(await client.tableVersion("svc", "default", "cities", undefined, true), 2);
    const meta = await client.metadata("svc", "default", "cities");
    assertEquals(meta.protocol, { minReaderVersion: 1 });
    assertEquals(meta.version, 2);
    const schema = JSON.parse(meta.metaData.schemaString as string);
    assertEquals(schema.type, "struct");
    assertEquals(schema.fields.find((f: Json) => f.name === "id").type, "long");
    assertEquals(schema.fields.find((f: Json) => f.name === "name").type, "string");
    assertEquals(meta.metaData.partitionColumns, []);
    assertEquals(meta.metaData.format, { provider: "parquet" });
    const answer = await client.query("svc", "default", "cities", {});
    assertEquals(answer.files.length, 3);
    assertEquals(answer.metaData.id, meta.metaData.id);
    const rows: Json[] = [];
    for (const file of answer.files) {
      assertEquals(file.partitionValues, {});
      assert((file.expirationTimestamp as number) > Date.now());
      const stats = JSON.parse(file.stats as string);
      // the URL is read without the token, as a Delta Sharing reader does
      const res = await fetch(file.url as string);
      assertEquals(res.status, 200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assertEquals(bytes.byteLength, file.size);
      const part = await parquetRows(bytes);
      assertEquals(stats.numRecords, part.length);
      assertEquals(stats.minValues.id, Math.min(...part.map((r) => Number(r.id))));
      assertEquals(stats.maxValues.id, Math.max(...part.map((r) => Number(r.id))));
      rows.push(...part);
    }
    const page = await (await fetch(`${node.url}/projects/cities/data?version=2&limit=1000`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })).json();
    assertEquals(rows.length, page.records.length);
    assertEquals(
      rows.map((r) => [Number(r.id), r.name, Number(r.population)]),
      page.records.map((r: Json) => [r.id, r.name, r.population]),
    );
    // a tampered URL is refused
    const tampered = (answer.files[0].url as string).replace(
      /sig=([0-9a-f])/,
      (_m, c) => `sig=${c === "0" ? "1" : "0"}`,
    );
    assertEquals((await fetch(tampered)).status, 403);
  });
});

Deno.test("query: version, limitHint, predicates, maxFiles with page tokens, the delta format", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const v1 = await client.query("svc", "default", "cities", { version: 1 });
    assertEquals(v1.files.length, 2);
    assertEquals(v1.metaData.version, 1);
    assert(v1.files.every((f) => f.version === 1 && typeof f.timestamp === "number"));
    const limited = await client.query("svc", "default", "cities", { limitHint: 10 });
    assertEquals(limited.files.length, 1);
    // ids 500..599 live in the third part only
    const hinted = await client.query("svc", "default", "cities", { predicateHints: ["id >= 550"] });
    assertEquals(hinted.files.length, 1);
    const tree = JSON.stringify({
      op: "lessThan",
      children: [{ op: "column", name: "id", valueType: "long" }, { op: "literal", value: "100", valueType: "long" }],
    });
    assertEquals((await client.query("svc", "default", "cities", { jsonPredicateHints: tree })).files.length, 1);
    const junk = await client.query("svc", "default", "cities", {
      predicateHints: ["weird(sql)"],
      jsonPredicateHints: "{",
    });
    assertEquals(junk.files.length, 3);
    const seen: string[] = [];
    let token: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await client.query("svc", "default", "cities", {
        maxFiles: 2,
        ...(token ? { pageToken: token } : {}),
      });
      seen.push(...page.files.map((f) => f.id as string));
      token = page.endStreamAction?.nextPageToken as string | undefined;
      if (!token) break;
    }
    assertEquals(seen.length, 3);
    assertEquals(new Set(seen).size, 3);
    const other = await refused(() =>
      client.query("svc", "default", "cities", { maxFiles: 2, version: 1, pageToken: token ?? "e30" })
    );
    assertEquals(other.status, 400);
    const delta = await client.query("svc", "default", "cities", {}, "responseformat=delta");
    assertEquals(delta.capabilities, "responseformat=delta");
    assert(typeof (delta.protocol.deltaProtocol as Json).minReaderVersion === "number");
    assert(typeof (delta.metaData.deltaMetadata as Json).schemaString === "string");
    const add = (delta.files[0].deltaSingleAction as Json).add as Json;
    assertEquals((await fetch(add.path as string)).status, 200);
    const ended = await client.query("svc", "default", "cities", {}, "includeendstreamaction=true");
    assert(ended.endStreamAction !== null && typeof ended.endStreamAction.minUrlExpirationTimestamp === "number");
    for (const [body, code] of [["{", 400], ["[]", 400], ['{"version":-1}', 400], ['{"version":9}', 400]] as const) {
      const res = await client.raw("POST", "/shares/svc/schemas/default/tables/cities/query", body, {
        "content-type": "application/json",
      });
      assertEquals(res.status, code, body);
      assert(typeof (await res.json()).errorCode === "string", body);
    }
  });
});

Deno.test("time travel: timestamp picks the version made at or before it, startingTimestamp the first at or after", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.project("notes", { slug: "notes", title: "Notes", createdAt: "2026-01-01T00:00:00Z" });
    for (
      const [n, at] of [[1, "2026-02-01T00:00:00Z"], [2, "2026-03-01T00:00:00Z"], [3, "2026-04-01T00:00:00Z"]] as const
    ) {
      await w.version("notes", n, { parts: [{ sql: citySql(0, 10 * n) }], extra: { createdAt: at } });
    }
  } finally {
    w.close();
  }
  const { serveNode } = await import("../../server.ts");
  const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null, log: null });
  try {
    const client = new DeltaSharingClient({ shareCredentialsVersion: 1, endpoint: `${serving.url}/delta-sharing` });
    const at = (ts: string) => client.query("svc", "default", "notes", { timestamp: ts });
    assertEquals((await at("2026-03-15T00:00:00Z")).metaData.version, 2);
    assertEquals((await at("2026-03-01 00:00:00")).metaData.version, 2);
    const early = await refused(() => at("2025-12-31T00:00:00Z"));
    assertEquals(early.status, 400);
    const bad = await refused(() => at("yesterday"));
    assertEquals(bad.status, 400);
    assertEquals(await client.tableVersion("svc", "default", "notes", "2026-02-15T00:00:00Z"), 2);
    assertEquals(await client.tableVersion("svc", "default", "notes", "2020-01-01T00:00:00Z"), 1);
    // a node without a token is open, and its file URLs are plain
    const files = (await client.query("svc", "default", "notes", { version: 3 })).files;
    assertEquals(files.length, 1);
    assert(!(files[0].url as string).includes("sig="));
  } finally {
    await serving.shutdown();
    await dir.cleanup();
  }
});

Deno.test("recipients: a recipient's token reads the shares and nothing else; removed or expired is 401 at once", async () => {
  let clock = Date.now();
  await withNode({ token: TOKEN, now: () => clock }, async (node) => {
    const { token } = await addRecipient(node.store, "analysts", new Date(clock + 60_000), new Date(clock));
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: token,
    });
    assertEquals((await client.listAllTables("svc")).length, 2);
    const files = (await client.query("svc", "default", "cities", {})).files;
    const fresh = await fetch(files[0].url as string);
    assertEquals(fresh.status, 200);
    await fresh.body?.cancel();
    clock += 3601_000; // past the URL's hour
    const stale = await fetch(files[0].url as string);
    assertEquals(stale.status, 403, "an expired file URL is refused");
    await stale.body?.cancel();
    clock -= 3601_000;
    const auth = { authorization: `Bearer ${token}` };
    for (
      const [method, path, body] of [
        ["GET", "/projects", undefined],
        ["GET", "/projects/cities/data", undefined],
        ["GET", "/projects/cities/manifest", undefined],
        ["POST", "/projects/cities/query", '{"sql":"select 1"}'],
        ["POST", "/projects/cities/contribute", '{"records":[{}]}'],
        ["POST", "/mcp", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
      ] as const
    ) {
      const res = await fetch(`${node.url}${path}`, {
        method,
        headers: { ...auth, "content-type": "application/json" },
        body,
      });
      assertEquals(res.status, 401, `${method} ${path}`);
      await res.body?.cancel();
    }
    const login = await fetch(`${node.url}/ui/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: node.url },
      body: `token=${token}`,
      redirect: "manual",
    });
    assert(!(login.headers.get("set-cookie") ?? "").includes("Max-Age=43200"), "a recipient's token logs no one in");
    await login.body?.cancel();
    clock += 61_000;
    const expired = await refused(() => client.listShares());
    assertEquals([expired.status, expired.errorCode], [401, "UNAUTHENTICATED"]);
    clock -= 61_000;
    assertEquals((await client.listShares()).length, 1);
    assertEquals(await removeRecipient(node.store, "analysts"), true);
    const removed = await refused(() => client.listShares());
    assertEquals(removed.status, 401);
    const anonymous = new DeltaSharingClient({ shareCredentialsVersion: 1, endpoint: `${node.url}/delta-sharing` });
    assertEquals((await refused(() => anonymous.listShares())).status, 401);
  });
});

Deno.test("a file URL stays readable until it expires though its version is pruned meanwhile", async () => {
  await withNode({ token: TOKEN, keepVersions: 2 }, async (node) => {
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const old = (await client.query("svc", "default", "cities", { version: 1 })).files;
    const { pruneLocked } = await import("../../src/store/mod.ts");
    const result = await pruneLocked(node.store, "cities", 1);
    assertEquals(result.versions, [1]);
    for (const file of old) {
      const res = await fetch(file.url as string);
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
  });
});

const NOTES = {
  slug: "notes",
  title: "Notes",
  readme: "Notes kept while working, one per record.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }], allowExtra: false },
};

Deno.test("changes: replaying every version's change from the first gives the newest version, over merges that fold", async () => {
  await withNode({ token: TOKEN }, async (node) => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const created = await post(node.url, "/projects", NOTES, auth);
    assertEquals(created.status, 201, created.text);
    let next = 0;
    for (let i = 0; i < 30; i++) {
      const n = 1 + ((i * 7) % 13);
      const records = Array.from({ length: n }, () => ({ id: next, text: `note ${next++}` }));
      const r = await post(node.url, "/projects/notes/contribute", { records }, auth);
      assertEquals(r.status, 201, JSON.stringify(r.body));
    }
    const manifest = await (await fetch(`${node.url}/projects/notes/manifest`, { headers: auth })).json();
    assertEquals(manifest.version, 30);
    assert(manifest.parts.length < 30, "merges folded parts");
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const res = await client.raw("GET", "/shares/svc/schemas/default/tables/notes/changes?startingVersion=1");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("delta-table-version"), "1");
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(Object.keys(lines[0]), ["protocol"]);
    assertEquals(lines[1].metaData.configuration, { enableChangeDataFeed: "true" });
    const adds = lines.slice(2).map((l) => l.add);
    assertEquals(adds.map((a) => a.version), Array.from({ length: 30 }, (_, i) => i + 1));
    const replayed: Json[] = [];
    for (const add of adds) {
      const rows = await parquetRows(new Uint8Array(await (await fetch(add.url)).arrayBuffer()), "id, text");
      assertEquals(JSON.parse(add.stats).numRecords, rows.length);
      replayed.push(...rows);
    }
    const page = await (await fetch(`${node.url}/projects/notes/data?limit=1000`, { headers: auth })).json();
    const key = (r: Json) => `${Number(r.id)}:${r.text}`;
    assertEquals(replayed.length, next);
    assertEquals(replayed.map(key).sort(), page.records.map(key).sort());
    // a window, through query's startingVersion and endingVersion
    const window = await client.query("svc", "default", "notes", { startingVersion: 28, endingVersion: 29 });
    assertEquals(window.files.map((f) => [f.kind, f.version]), [["add", 28], ["add", 29]]);
    assertEquals(window.version, 28);
    for (
      const q of ["startingVersion=31", "startingVersion=5&endingVersion=4", "endingVersion=3", "startingVersion=x"]
    ) {
      const r = await client.raw("GET", `/shares/svc/schemas/default/tables/notes/changes?${q}`);
      assertEquals(r.status, 400, q);
      assertEquals((await r.json()).errorCode, "INVALID_PARAMETER_VALUE", q);
    }
    // a pulled version that rewrote its parts has no known change: said, not guessed
    const pulled = await client.raw("GET", "/shares/svc/schemas/default/tables/cities/changes?startingVersion=1");
    assertEquals(pulled.status, 400);
    assertMatch((await pulled.json()).message, /change of version 2 is not known/);
    const first = await client.raw(
      "GET",
      "/shares/svc/schemas/default/tables/cities/changes?startingVersion=1&endingVersion=1",
    );
    assertEquals(first.status, 200);
    await first.body?.cancel();
  });
});

Deno.test("changes: a pruned start is 400 naming the oldest version held; the change files go with their versions", async () => {
  await withNode({ token: TOKEN, keepVersions: 3 }, async (node) => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const created = await post(node.url, "/projects", NOTES, auth);
    assertEquals(created.status, 201, created.text);
    for (let i = 0; i < 6; i++) {
      const r = await post(node.url, "/projects/notes/contribute", { records: [{ id: i, text: `n${i}` }] }, auth);
      assertEquals(r.status, 201);
    }
    const client = new DeltaSharingClient({
      shareCredentialsVersion: 1,
      endpoint: `${node.url}/delta-sharing`,
      bearerToken: TOKEN,
    });
    const r = await client.raw("GET", "/shares/svc/schemas/default/tables/notes/changes?startingVersion=1");
    assertEquals(r.status, 400);
    assertMatch((await r.json()).message, /oldest version held is 4/);
    const zero = await client.raw("GET", "/shares/svc/schemas/default/tables/notes/changes?startingVersion=0");
    assertEquals(zero.status, 400);
    assertEquals(
      (await zero.json()).message,
      "version 0 does not exist: a table's versions start at 1 (held: 4 to 6)",
      "not said to be pruned: there never was a version 0",
    );
    const kept = await client.raw("GET", "/shares/svc/schemas/default/tables/notes/changes?startingVersion=4");
    const adds = (await kept.text()).trim().split("\n").slice(2).map((l) => JSON.parse(l).add);
    assertEquals(adds.map((a) => a.version), [4, 5, 6]);
    const { readdir } = await import("node:fs/promises");
    const onDisk = (await readdir(join(node.store, "notes", "parts"))).filter((f) => f.endsWith(".parquet"));
    const listed = new Set<string>(adds.map((a) => a.id));
    for (const v of [4, 5, 6]) {
      const manifest = await (await fetch(`${node.url}/projects/notes/manifest?version=${v}`, { headers: auth }))
        .json();
      for (const p of manifest.parts) listed.add(p.sha256);
    }
    assert(
      onDisk.every((f) => listed.has(f.replace(".parquet", ""))),
      `left: ${onDisk.filter((f) => !listed.has(f.replace(".parquet", "")))} of ${onDisk.length}; listed ${[
        ...listed,
      ]}`,
    );
  });
});
