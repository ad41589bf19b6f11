import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { StoreWriter } from "../support/store_fixture.ts";
import { postQuery, sql } from "./_query.ts";

Deno.test("POST /query answers the wire shape over the newest version", async () => {
  await withNode({}, async ({ url, fixture }) => {
    const r = await sql(url, "SELECT count(*) AS n, min(id) AS lo, max(name) AS hi FROM records");
    assertEquals(r.status, 200);
    assertEquals(r.headers.get("content-type"), "application/json; charset=utf-8");
    const { ms, ...rest } = r.body;
    assert(typeof ms === "number" && ms >= 0);
    const bytes = (fixture.v2.manifest.parts as { bytes: number }[]).reduce((a, p) => a + p.bytes, 0);
    assertEquals(rest, {
      project: "cities",
      version: 2,
      columns: ["n", "lo", "hi"],
      types: ["BIGINT", "BIGINT", "VARCHAR"],
      rows: [[600, 0, "city-99"]],
      count: 1,
      truncated: false,
      scannedBytes: bytes,
    });
    const v1 = await sql(url, "SELECT count(*) FROM records", { version: 1 });
    assertEquals([v1.body.version, v1.body.rows], [1, [[250]]]);
  });
});

Deno.test("rows: default 200, at most 1,000, truncated when more existed", async () => {
  await withNode({}, async ({ url }) => {
    const all = await sql(url, "SELECT id FROM records ORDER BY id");
    assertEquals([all.body.count, all.body.truncated, all.body.rows[199]], [200, true, [199]]);
    const some = await sql(url, "SELECT id FROM records ORDER BY id", { limit: 600 });
    assertEquals([some.body.count, some.body.truncated], [600, false]);
    const exact = await sql(url, "SELECT id FROM records LIMIT 5", { limit: 5 });
    assertEquals([exact.body.count, exact.body.truncated], [5, false]);
    const many = await sql(url, "SELECT * FROM range(5000)", { limit: 1000 });
    assertEquals([many.body.count, many.body.truncated], [1000, true]);
    for (const limit of [0, 1001, -1, 1.5, "10"]) {
      const r = await sql(url, "SELECT 1", { limit });
      assertEquals(r.status, 400, String(limit));
      assertMatch(r.body.error, /^body\/limit must be/);
    }
  });
});

Deno.test("the statement must be 1 to 4,000 characters, one statement, and a read", async () => {
  await withNode({}, async ({ url }) => {
    const long = `SELECT 1 AS x ${" ".repeat(4000 - 14)}`;
    assertEquals(long.length, 4000);
    const emoji = `SELECT '${"😀".repeat(3986)}' AS e`;
    assertEquals([[...emoji].length, emoji.length], [4000, 7986], "4,000 characters in 7,986 UTF-16 units");
    const wide = await postQuery(url, "cities", { sql: emoji });
    assertEquals([wide.status, wide.body.rows?.[0][0].length], [200, 7972], "characters are counted, not UTF-16 units");
    const over = await postQuery(url, "cities", { sql: emoji.replace("' AS e", "😀' AS e") });
    assertEquals(over.status, 400, "4,001 characters are refused");
    assertEquals((await sql(url, long)).status, 200);
    for (const statement of [long + " ", "", "   ", 42, null]) {
      const r = await postQuery(url, "cities", { sql: statement });
      assertEquals([r.status, r.body], [400, { error: "body/sql must be a statement of 1-4000 characters" }]);
    }
    const two = await sql(url, "SELECT 1; SELECT 2");
    assertEquals([two.status, two.body.error], [400, "one statement at a time: this query holds 2"]);
    for (
      const read of [
        "WITH t AS (SELECT 1 AS a) SELECT a FROM t",
        "FROM records LIMIT 1",
        "VALUES (1), (2)",
        "DESCRIBE records",
        "SUMMARIZE records",
        "EXPLAIN SELECT count(*) FROM records",
        "SELECT 1;",
      ]
    ) {
      const r = await sql(url, read);
      assertEquals(r.status, 200, `${read}: ${r.text}`);
    }
    const info = await sql(url, "PRAGMA table_info('records')");
    assertEquals([info.status, info.body.rows.map((r: Json[]) => [r[1], r[2]])], [200, [
      ["id", "BIGINT"],
      ["name", "VARCHAR"],
      ["population", "BIGINT"],
      ["score", "DOUBLE"],
      ["note", "VARCHAR"],
    ]]);
    const tables = await sql(url, "PRAGMA show_tables");
    assertEquals([tables.status, tables.body.rows], [200, [["records"]]], "the sandbox holds records and nothing else");
    for (
      const write of [
        "CREATE TABLE t AS SELECT 1",
        "INSERT INTO records VALUES (1)",
        "DROP VIEW records",
        "PRAGMA version",
        "PRAGMA database_list",
        "PRAGMA table_info('duckdb_settings')",
        "EXPLAIN COPY records TO 'x.csv'",
        "EXPLAIN ANALYZE CREATE TABLE t AS SELECT 1",
        "CALL pragma_version()",
        "SET threads = 1",
        "RESET threads",
        "BEGIN TRANSACTION",
        "CHECKPOINT",
        "DETACH memory",
        "USE memory",
        "VACUUM",
      ]
    ) {
      const r = await sql(url, write);
      assertEquals(r.status, 400, write);
      assertEquals(
        r.body.error,
        "queries are read-only — SELECT, WITH, FROM, DESCRIBE, SUMMARIZE or VALUES over the table records",
        write,
      );
    }
  });
});

Deno.test("errors name no server path; unknown projects and versions are 404", async () => {
  await withNode({}, async ({ url, store }) => {
    const r = await sql(url, "SELECT * FROM no_such_table");
    assertEquals(r.status, 400);
    assertEquals(r.body.error, "table no_such_table does not exist: the version's records are the table records");
    const part = await sql(url, "SELECT * FROM read_parquet('/nowhere/x.parquet')");
    assertEquals(part.status, 400);
    assert(!part.text.includes(store), "no store path in errors");
    assertEquals((await postQuery(url, "nowhere", { sql: "SELECT 1" })).status, 404);
    const v9 = await sql(url, "SELECT 1", { version: 9 });
    assertEquals([v9.status, v9.body.error], [404, "version 9 is not on this node (newest 2, 2 versions held)"]);
    for (const body of ['"SELECT 1"', "[]", "{bad", '{"sql": "SELECT 1", "version": "2"}']) {
      const res = await fetch(`${url}/projects/cities/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      assertEquals(res.status, 400, body);
      assert(typeof (await res.json()).error === "string");
    }
    const get = await fetch(`${url}/projects/cities/query`);
    assertEquals([get.status, get.headers.get("allow")], [405, "POST"]);
    await get.body?.cancel();
  });
});

Deno.test("records is a view over the version's parts by name: parts with extra fields line up", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("mixed", 1, {
      parts: [
        { sql: "SELECT 1::BIGINT AS id, 'a' AS name" },
        { sql: "SELECT 'b' AS name, 2::BIGINT AS id, '{\"x\":1}' AS _extra" },
      ],
    });
    w.close();
    const r = await sql(url, "SELECT id, name, _extra FROM records ORDER BY id", {}, "mixed");
    assertEquals(r.status, 200, r.text);
    assertEquals(r.body.rows, [[1, "a", null], [2, "b", '{"x":1}']]);
  });
});

Deno.test("a read-only node still answers queries", async () => {
  await withNode({ readOnly: true }, async ({ url }) => {
    const r: Json = await sql(url, "SELECT 40 + 2 AS answer");
    assertEquals(r.body.rows, [[42]]);
    assertEquals((await (await fetch(`${url}/healthz`)).json()).readOnly, true);
  });
});
