import { assertEquals } from "../support/assert.ts";
import { leadingKeyword, scrubber, startsAsRead } from "../../src/sql/mod.ts";

Deno.test("the leading keyword is read past comments, whitespace and parentheses", () => {
  assertEquals(leadingKeyword("  select 1"), "SELECT");
  assertEquals(leadingKeyword("-- a comment; DROP\n/* another; */ ((WITH x AS (SELECT 1) SELECT 2))"), "WITH");
  assertEquals(leadingKeyword("/* never closed"), "");
  assertEquals(leadingKeyword(""), "");
  assertEquals(leadingKeyword("copy records to 'x'"), "COPY");
});

Deno.test("only read keywords start a query", () => {
  for (
    const sql of ["SELECT 1", "FROM records", "VALUES (1)", "DESCRIBE records", "SUMMARIZE records", "EXPLAIN SELECT 1"]
  ) {
    assertEquals(startsAsRead(sql), true, sql);
  }
  for (
    const sql of [
      "PRAGMA version",
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
