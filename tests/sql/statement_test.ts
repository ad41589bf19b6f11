import { assertEquals } from "../support/assert.ts";
import { leadingKeyword, nodeInternal, scrubber, startsAsRead } from "../../src/sql/mod.ts";

Deno.test("the leading keyword is read past comments, whitespace and parentheses", () => {
  assertEquals(leadingKeyword("  select 1"), "SELECT");
  assertEquals(leadingKeyword("-- a comment; DROP\n/* another; */ ((WITH x AS (SELECT 1) SELECT 2))"), "WITH");
  assertEquals(leadingKeyword("/* never closed"), "");
  assertEquals(leadingKeyword(""), "");
  assertEquals(leadingKeyword("copy records to 'x'"), "COPY");
});

Deno.test("only read keywords start a query", () => {
  for (
    const sql of [
      "SELECT 1",
      "FROM records",
      "VALUES (1)",
      "DESCRIBE records",
      "SUMMARIZE records",
      "EXPLAIN SELECT 1",
      "/* explain */ EXPLAIN ANALYZE SELECT 1",
      "PRAGMA table_info('records')",
      "pragma show_tables;",
    ]
  ) {
    assertEquals(startsAsRead(sql), true, sql);
  }
  for (
    const sql of [
      "PRAGMA version",
      "PRAGMA table_info('other')",
      "PRAGMA show_tables; DROP VIEW records",
      "PRAGMA database_list",
      "EXPLAIN COPY records TO 'x'",
      "EXPLAIN /* x */ ANALYZE COPY records TO 'x'",
      "EXPLAIN EXPLAIN SELECT 1",
      "CALL pragma_version()",
      "SET threads=1",
      "COPY x TO 'y'",
      "ATTACH 'x'",
      "INSTALL x",
    ]
  ) {
    assertEquals(startsAsRead(sql), false, sql);
  }
});

Deno.test("scrubbing replaces server paths, longest first", () => {
  const scrub = scrubber({ "/srv/data": "<store>", "/srv": "<srv>", "/": "<root>" });
  assertEquals(scrub('open "/srv/data/x.parquet" and /srv/other'), 'open "<store>/x.parquet" and <srv>/other');
  assertEquals(scrub("no paths here"), "no paths here");
});

Deno.test("nodeInternal finds names that describe the node, in any case, quoted or not; query only as a call", () => {
  const found: [string, string][] = [
    ["SELECT current_setting('temp_directory')", "current_setting"],
    ["SELECT \"CURRENT_SETTING\"('x')", "current_setting"],
    ["FROM system.pg_catalog.pg_settings", "pg_settings"],
    ["SELECT 1 -- duckdb_settings", "duckdb_settings"],
    ["FROM query('SELECT 1')", "query"],
    ["FROM Query_Table ('records')", "query_table"],
    ["FROM query -- c\n /* a /* b */ c */ ('x')", "query"],
    ["FROM duckdb_logs", "duckdb_logs"],
  ];
  for (const [sql, name] of found) assertEquals(nodeInternal(sql), name, sql);
  for (const sql of ["SELECT query FROM records", "SELECT 'query' AS q", "SELECT query_table, settings FROM records"]) {
    assertEquals(nodeInternal(sql), null, sql);
  }
});
