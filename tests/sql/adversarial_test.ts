/**
 * Hostile SQL against the real engine over HTTP: every statement is refused
 * or contained, no file outside the version is read or written, no server
 * path leaks, and the node keeps answering.
 */
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { existsSync } from "node:fs";
import { Buffer } from "node:buffer";
import { readdir, realpath } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { closeSandbox, openSandbox } from "../../src/sql/_sandbox.ts";
import { withNode } from "../support/node.ts";
import { tempDir } from "../support/store_fixture.ts";
import { sql } from "./_query.ts";

const SQL_LIMITS = { timeoutMs: 3000, memory: 1024 ** 3, tempLimit: "64MB", interruptGraceMs: 2000 };

async function stillServing(url: string): Promise<void> {
  const r = await sql(url, "SELECT count(*) FROM records");
  assertEquals([r.status, r.body.rows], [200, [[600]]], "the node still answers");
}

Deno.test("reading files outside the version is refused", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url, store, fixture }) => {
    const v1Only = fixture.v1.partPaths[0];
    const targets = [
      "/etc/passwd",
      join(store, "cities", "project.json"),
      join(store, "cities", "v2", "manifest.json"),
      v1Only,
    ];
    const readers = [
      "read_csv",
      "read_csv_auto",
      "read_text",
      "read_blob",
      "read_json",
      "read_parquet",
      "sniff_csv",
      "glob",
      "parquet_metadata",
    ];
    for (const target of targets) {
      for (const fn of readers) {
        const r = await sql(url, `SELECT * FROM ${fn}('${target}')`);
        assertEquals(r.status, 400, `${fn}(${target}): ${r.text}`);
        assert(!r.text.includes("root:x:0"), "no /etc/passwd content");
        assert(!r.text.includes(store), `no store path in ${r.text}`);
      }
    }
    const glob = await sql(url, `SELECT * FROM glob('${store}/**')`);
    assertEquals(glob.status, 400);
    const list = await sql(url, `SELECT * FROM read_parquet(['${v1Only}'])`);
    assertEquals(list.status, 400, "a part of another version is outside this version");
    await stillServing(url);
  });
});

Deno.test("writing files is refused: COPY into the store or the temp folder, EXPORT DATABASE, ATTACH", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url, store }) => {
    const before = await readdir(join(store, "cities"), { recursive: true });
    const places = [
      join(store, "cities", "evil.csv"),
      join(store, "cities", "parts", "x.parquet"),
      "/tmp/svc-evil.csv",
    ];
    for (const place of places) {
      for (
        const statement of [
          `COPY records TO '${place}'`,
          `COPY (SELECT 1) TO '${place}' (FORMAT csv)`,
          `EXPLAIN ANALYZE COPY records TO '${place}'`,
          `EXPORT DATABASE '${place}'`,
          `ATTACH '${place}' AS evil`,
          `WITH x AS (SELECT 1) COPY x TO '${place}'`,
        ]
      ) {
        const r = await sql(url, statement);
        assertEquals(r.status, 400, `${statement}: ${r.text}`);
      }
    }
    const settings: Json = await sql(url, "SELECT value FROM duckdb_settings() WHERE name = 'temp_directory'");
    assertEquals(settings.status, 400, "settings are not shown");
    for (const place of ["spill/x.csv", "cities/evil.csv", "cities/parts/x.parquet", "x.csv", "../x.csv"]) {
      assertEquals((await sql(url, `COPY records TO '${place}'`)).status, 400, place);
    }
    assertEquals(await readdir(join(store, "cities"), { recursive: true }), before, "the store is unchanged");
    assertEquals(existsSync("/tmp/svc-evil.csv"), false);
    await stillServing(url);
  });
});

Deno.test("extensions, URLs, settings, PRAGMA and CALL are refused or locked", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url }) => {
    const refused = [
      "INSTALL httpfs",
      "LOAD httpfs",
      "FORCE INSTALL httpfs",
      "SELECT * FROM read_parquet('https://example.com/x.parquet')",
      "SELECT * FROM read_csv('http://127.0.0.1:1/x.csv')",
      "SELECT * FROM read_json('s3://bucket/x.json')",
      "SET enable_external_access = true",
      "SET allowed_paths = ['/etc/passwd']",
      "SET lock_configuration = false",
      "RESET ALL",
      "RESET allowed_directories",
      "SET GLOBAL memory_limit = '100GB'",
      "PRAGMA enable_external_access",
      "PRAGMA threads = 64",
      "CALL pragma_version()",
      "CALL duckdb_settings()",
    ];
    for (const statement of refused) {
      const r = await sql(url, statement);
      assertEquals(r.status, 400, `${statement}: ${r.text}`);
    }
    await stillServing(url);
  });
});

Deno.test("a sandbox is locked: external access off, configuration locked, no extension loaded", async () => {
  const dir = await tempDir();
  const sandbox = await openSandbox([], join(dir.path, "spill"), {
    memoryLimit: "256MB",
    threads: 1,
    tempLimit: "8MB",
  });
  try {
    const read = async (q: string) => (await sandbox.connection.runAndReadAll(q)).getRows();
    assertEquals(
      await read("SELECT current_setting('enable_external_access'), current_setting('lock_configuration')"),
      [[false, true]],
    );
    assertEquals(
      (await read("SELECT extension_name FROM duckdb_extensions() WHERE loaded")).flat().includes("httpfs"),
      false,
    );
    await assertRejects(() => sandbox.connection.run("SET lock_configuration = false"), /locked|configuration/i);
  } finally {
    closeSandbox(sandbox);
    await dir.cleanup();
  }
});

Deno.test("no server path leaks through settings, catalogs, metadata or errors", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url, store }) => {
    const probes = [
      "SELECT * FROM duckdb_settings()",
      "SELECT * FROM duckdb_views()",
      "SELECT * FROM duckdb_databases()",
      "SELECT sql FROM duckdb_views() WHERE view_name = 'records'",
      "SELECT * FROM parquet_metadata((SELECT list(file) FROM (SELECT filename AS file FROM read_parquet('x'))))",
      "SELECT filename FROM records",
      "EXPLAIN SELECT * FROM records",
      "SELECT * FROM records WHERE nope = 1",
    ];
    const secrets = [store, await realpath(store), tmpdir(), homedir()].filter((p) => p.length > 4);
    const leaks = (text: string) => secrets.filter((s) => text.toLowerCase().includes(s.toLowerCase()));
    for (const probe of probes) {
      const r = await sql(url, probe, { limit: 1000 });
      assertEquals(leaks(r.text), [], `${probe}: ${r.text.slice(0, 300)}`);
    }
    // Scrubbing text cannot see through a transformation; the paths themselves must say nothing.
    const transformed = [
      "SELECT upper(sql) FROM duckdb_views()",
      "SELECT hex(current_setting('temp_directory'))",
      "SELECT hex(string_agg(coalesce(value, ''), '|')) FROM duckdb_settings()",
      "SELECT hex(string_agg(sql, '|')) FROM duckdb_views()",
      "SELECT reverse(string_agg(coalesce(value, ''), '|')) FROM duckdb_settings()",
      "SELECT hex(string_agg(coalesce(path, ''), '|')) FROM duckdb_databases()",
      "SELECT hex(current_setting('extension_directory'))",
      "SELECT hex(current_setting('home_directory'))",
    ];
    for (const probe of transformed) {
      const r: Json = await sql(url, probe, { limit: 1000 });
      if (r.status === 400) {
        assertMatch(r.body.error, /is not available here: it describes the node, not the data/, probe);
        continue;
      }
      assertEquals(r.status, 200, `${probe}: ${r.text}`);
      const value = String(r.body.rows[0][0] ?? "");
      const plain = /^[0-9A-F]*$/.test(value) ? Buffer.from(value, "hex").toString("utf8") : value;
      const readable = probe.includes("reverse(") ? [...plain].reverse().join("") : plain;
      assertEquals(leaks(readable), [], `${probe}: ${readable.slice(0, 300)}`);
    }
    const views: Json = await sql(url, "SELECT sql FROM duckdb_views() WHERE view_name = 'records'");
    assertMatch(views.body.rows[0][0], /\('(store\/)?cities\/parts\/[0-9a-f]{64}\.parquet'/);
    const temp: Json = await sql(url, "SELECT path FROM duckdb_databases() WHERE database_name = 'temp'");
    assertEquals(leaks(JSON.stringify(temp.body)), []);
    for (
      const probe of [
        "FROM pg_settings",
        'SELECT * FROM system.pg_catalog."PG_SETTINGS"',
        "SUMMARIZE pg_settings",
        "SELECT \"Current_Setting\"('allowed_paths')",
        "FROM duckdb_logs",
        "FROM query /* a /* nested */ comment */ ('SELECT 1')",
        "FROM query_table('records')",
        "SELECT * FROM duckdb_temporary_files()",
        "SELECT * FROM duckdb_external_file_cache()",
      ]
    ) {
      const r: Json = await sql(url, probe);
      assertEquals(r.status, 400, probe);
      assertMatch(r.body.error, /is not available here/, probe);
    }
    const column = await sql(url, "SELECT 'x' AS query, 1 AS query_table");
    assertEquals(column.status, 200, "query is still a fine column name");
  });
});

Deno.test("two statements hidden behind comments or string literals are still two", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url }) => {
    const two = [
      "SELECT 1 /* ; */; COPY records TO '/tmp/svc-evil.csv'",
      "SELECT ';' AS a; SELECT 2",
      "SELECT 1 -- ;\n; SELECT 2",
      "SELECT $$ ; $$; ATTACH '/tmp/x.db'",
      "/* SELECT 1; */ SELECT 1; DROP VIEW records",
      "SELECT 'it''s' ; SELECT 2",
    ];
    for (const statement of two) {
      const r = await sql(url, statement);
      assertEquals([r.status, r.body.error], [400, "one statement at a time: this query holds 2"], statement);
    }
    const one = await sql(url, "SELECT ';' AS a, $$ ; $$ AS b /* ; */ -- ;");
    assertEquals(one.body.rows, [[";", " ; "]]);
    const hidden = await sql(url, "/* SELECT */ COPY records TO '/tmp/svc-evil.csv'");
    assertEquals(hidden.status, 400, "a comment does not make COPY a read");
  });
});

Deno.test("memory explosions and runaway queries are contained; the node keeps serving", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url }) => {
    const heavy = [
      "SELECT a.range AS x, b.range AS y FROM range(200000) a CROSS JOIN range(200000) b ORDER BY x DESC, y DESC LIMIT 5",
      "SELECT string_agg(repeat('x', 1000), '') FROM range(10000000)",
      "SELECT list(range) FROM range(1000000000)",
      "SELECT count(*) FROM range(1000000000000)",
    ];
    for (const statement of heavy) {
      const started = Date.now();
      const r = await sql(url, statement);
      assert(r.status === 400 || r.status === 408, `${statement}: ${r.status} ${r.text.slice(0, 200)}`);
      if (r.status === 400) assertMatch(r.body.error, /memory|Out of Memory|temp|space|limit/i);
      assert(Date.now() - started < 15_000, "answered within the time limit and its grace");
      await stillServing(url);
    }
  });
});

Deno.test("a symlinked part pointing at /etc/passwd never reaches the engine", async () => {
  await withNode({ sql: SQL_LIMITS }, async ({ url, store }) => {
    const { symlink, writeFile, mkdir, stat } = await import("node:fs/promises");
    const size = (await stat("/etc/passwd")).size;
    const sha = "e".repeat(64);
    await mkdir(join(store, "evil", "parts"), { recursive: true });
    await mkdir(join(store, "evil", "v1"), { recursive: true });
    await symlink("/etc/passwd", join(store, "evil", "parts", `${sha}.parquet`));
    await writeFile(
      join(store, "evil", "v1", "manifest.json"),
      JSON.stringify({ parts: [{ sha256: sha, bytes: size }] }),
    );
    const r = await sql(url, "SELECT * FROM read_text('/etc/passwd')", {}, "evil");
    assertEquals(r.status, 404, r.text);
    const health: Json = await (await fetch(`${url}/healthz`)).json();
    assertMatch(health.incomplete[0].reason, /not a regular file/);
    const part = await fetch(`${url}/parts/evil/${sha}.parquet`);
    assertEquals(part.status, 404, "the parts route never follows a symlink");
    assert(!(await part.text()).includes("root:"));
  });
});
