/**
 * Files left out by predicate hints hold no matching row: real Parquet
 * files written by DuckDB holding hostile values (characters on both sides
 * of U+FFFF, integers past 2^53, decimals, dates, timestamps, NaN, FLOAT
 * roundings), a node over sockets answering `query` with each hint, and
 * DuckDB reading every file the node left out with the same predicate as
 * the judge: it must count no row. Each case also names files the hint must
 * leave out, so that skipping is shown to work, not only to be safe.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { basename } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { DeltaSharingClient } from "../support/delta_sharing_client.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { serveNode } from "../../server.ts";

const COLUMNS = "name, big, dec, day, ts, tz, d, f, flag, note";
const row = (values: string) => `(${values})`;
const part = (rows: string[]) =>
  `SELECT name::VARCHAR AS name, big::BIGINT AS big, dec::DECIMAL(20,2) AS dec, day::DATE AS day,
     ts::TIMESTAMP AS ts, tz::TIMESTAMPTZ AS tz, d::DOUBLE AS d, f::FLOAT AS f, flag::BOOLEAN AS flag,
     note::VARCHAR AS note
   FROM (VALUES ${rows.join(", ")}) t(${COLUMNS})`;

/** The files of version 1, by name. */
const PARTS: Record<string, string> = {
  // the file: strings on both sides of U+FFFF, in UTF-8 order a < U+E000 < U+FF21 < U+1F600
  A: part([
    row(
      `'Ａ', 9007199254740993, 12.34, '2021-04-29', '2021-04-29 12:00:00.123456', '2021-04-29 12:00:00+00', 1.5, 0.1, true, NULL`,
    ),
    row(`'\ue000', 1, 0.01, '2021-04-28', '2021-04-29 12:00:00', '2021-04-29 11:00:00+00', 2.5, 0.2, true, NULL`),
    row(`'😀', 2, -5.00, '2021-04-27', '2021-04-28 00:00:00', '2021-04-28 00:00:00+00', 3.5, 0.3, true, NULL`),
    row(`'a', 3, 100.10, '2021-04-26', '2021-04-27 00:00:00', '2021-04-27 00:00:00+00', 4.5, 0.25, true, NULL`),
  ]),
  B: part([
    row(
      `'b', 9007199254740992, 1.00, '1999-01-01', '1999-01-01 00:00:00', '1999-01-01 00:00:00+00', 10, 5.5, false, 'x'`,
    ),
    row(`'zz', 5, 2.00, '1999-12-31', '1999-12-31 23:59:59', '1999-12-31 23:59:59+00', 11, 6.5, true, NULL`),
  ]),
  // NaN (greater than every number) and infinity among the doubles
  C: part([
    row(`'c', 7, 3.00, '2010-01-01', '2010-01-01 00:00:00', '2010-01-01 00:00:00+00', 'nan'::DOUBLE, 7, NULL, 'y'`),
    row(`'d', 8, 4.00, '2010-01-02', '2010-01-02 00:00:00', '2010-01-02 00:00:00+00', 7.0, 8, NULL, 'y'`),
  ]),
};

const column = (name: string, valueType: string) => ({ op: "column", name, valueType });
const literal = (value: string, valueType: string) => ({ op: "literal", value, valueType });
const tree = (op: string, name: string, valueType: string, value: string) =>
  JSON.stringify({ op, children: [column(name, valueType), literal(value, valueType)] });

/**
 * One hint: as SQL (`predicateHints`) or a JSON tree, the judge's SQL, the
 * files the node must keep (those that match, or that the hint cannot rule
 * out) and those it must leave out.
 */
interface Case {
  sql?: string;
  json?: string;
  judge: string;
  keeps: string[];
  skips: string[];
}

const CASES: Case[] = [
  { sql: "name = 'Ａ'", judge: "name = 'Ａ'", keeps: ["A"], skips: ["B", "C"] },
  { json: tree("equal", "name", "string", "Ａ"), judge: "name = 'Ａ'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "name = '\ue000'", judge: "name = '\ue000'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "name = '😀'", judge: "name = '😀'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "name > '\uffff'", judge: "name > '\uffff'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "'\ufff0' < name", judge: "name > '\ufff0'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "name >= '\u{1f600}'", judge: "name >= '\u{1f600}'", keeps: ["A"], skips: ["B", "C"] },
  { sql: "name < 'a'", judge: "name < 'a'", keeps: [], skips: ["A", "B", "C"] },
  { sql: "name <> 'b'", judge: "name <> 'b'", keeps: ["A", "B", "C"], skips: [] },
  { sql: "big = 9007199254740993", judge: "big = 9007199254740993", keeps: ["A"], skips: ["B", "C"] },
  {
    json: tree("greaterThan", "big", "long", "9007199254740992"),
    judge: "big > 9007199254740992",
    keeps: ["A"],
    skips: ["B", "C"],
  },
  { sql: "dec > 50", judge: "dec > 50", keeps: ["A"], skips: ["B", "C"] },
  { sql: "dec < -4.999", judge: "dec < -4.999", keeps: ["A"], skips: ["B", "C"] },
  { sql: "day < '2000-01-01'", judge: "day < '2000-01-01'", keeps: ["B"], skips: ["A", "C"] },
  {
    json: tree("equal", "day", "date", "2021-04-29"),
    judge: "day = DATE '2021-04-29'",
    keeps: ["A"],
    skips: ["B", "C"],
  },
  {
    sql: "ts >= '2021-04-29 12:00:00.123456'",
    judge: "ts >= '2021-04-29 12:00:00.123456'",
    keeps: ["A"],
    skips: ["B", "C"],
  },
  {
    json: tree("lessThan", "ts", "timestamp", "2000-01-01T00:00:00Z"),
    judge: "ts < TIMESTAMP '2000-01-01 00:00:00'",
    keeps: ["B"],
    skips: ["A", "C"],
  },
  { sql: "tz > '2021-04-29 11:30:00+00'", judge: "tz > '2021-04-29 11:30:00+00'", keeps: ["A"], skips: ["B", "C"] },
  // NaN may be in any file of doubles (some writers leave it out of the statistics): never ruled out by a bound
  { sql: "d > 100", judge: "d > 100", keeps: ["A", "B", "C"], skips: [] },
  { sql: "d < 1", judge: "d < 1", keeps: ["C"], skips: ["A", "B"] },
  { sql: "d <> 7", judge: "d <> 7", keeps: ["A", "B", "C"], skips: [] },
  { sql: "d >= 4.5", judge: "d >= 4.5", keeps: ["A", "B", "C"], skips: [] },
  { sql: "f = 0.1", judge: "f = 0.1", keeps: [], skips: ["B", "C"] },
  { sql: "f > 0.1000000001", judge: "f > 0.1000000001", keeps: ["A"], skips: [] },
  { json: tree("lessThanOrEqual", "f", "float", "0.1"), judge: "f <= 0.1::FLOAT", keeps: ["A"], skips: ["B", "C"] },
  { sql: "flag = false", judge: "flag = false", keeps: ["B"], skips: ["A"] },
  { sql: "note IS NOT NULL", judge: "note IS NOT NULL", keeps: ["B", "C"], skips: ["A"] },
  { sql: "note IS NULL", judge: "note IS NULL", keeps: ["A", "B"], skips: ["C"] },
  {
    json: JSON.stringify({ op: "not", children: [{ op: "isNull", children: [column("note", "string")] }] }),
    judge: "NOT (note IS NULL)",
    keeps: ["B", "C"],
    skips: ["A"],
  },
  {
    json: JSON.stringify({ op: "not", children: [JSON.parse(tree("equal", "note", "string", "y"))] }),
    judge: "NOT (note = 'y')",
    keeps: ["B"],
    skips: ["A", "C"],
  },
  {
    json: JSON.stringify({
      op: "or",
      children: [JSON.parse(tree("equal", "name", "string", "😀")), JSON.parse(tree("lessThan", "big", "long", "6"))],
    }),
    judge: "name = '😀' OR big < 6",
    keeps: ["A", "B"],
    skips: ["C"],
  },
  // a string literal against a number, or a cast that leaves the statistics' order: every file kept
  { sql: "big = '5'", judge: "big = 5", keeps: ["B"], skips: [] },
  { json: tree("equal", "name", "int", "5"), judge: "false", keeps: ["A", "B", "C"], skips: [] },
];

async function countMatches(db: DuckDBInstance, path: string, where: string): Promise<number> {
  const c = await db.connect();
  try {
    const reader = await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${path}') WHERE ${where}`);
    return Number(reader.getRows()[0][0]);
  } finally {
    c.closeSync();
  }
}

Deno.test("predicate hints leave out only files that DuckDB finds no matching row in", async () => {
  const dir = await tempDir("svc-ds-order-");
  const writer = new StoreWriter(dir.path);
  const byName = new Map<string, { sha256: string; path: string }>();
  try {
    const names = Object.keys(PARTS);
    const written = await writer.version("hostile", 1, { parts: names.map((n) => ({ sql: PARTS[n] })) });
    written.partPaths.forEach((path, i) => byName.set(names[i], { sha256: basename(path, ".parquet"), path }));
  } finally {
    writer.close();
  }
  const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null, log: null });
  const judge = await DuckDBInstance.create(":memory:");
  try {
    const client = new DeltaSharingClient({ shareCredentialsVersion: 1, endpoint: `${serving.url}/delta-sharing` });
    const every = await client.query("svc", "default", "hostile", {});
    assertEquals(every.files.length, 3);
    const statsOf = (name: string) => every.files.find((f) => f.id === byName.get(name)!.sha256)!.stats as string;
    // the statistics say what Parquet wrote: UTF-8 order over the strings, the big integer exact
    assertEquals(JSON.parse(statsOf("A")).minValues.name, "a");
    assertEquals(JSON.parse(statsOf("A")).maxValues.name, "😀");
    assert(statsOf("A").includes('"big":9007199254740993'), statsOf("A"));
    const failures: string[] = [];
    for (const c of CASES) {
      const body = c.sql !== undefined ? { predicateHints: [c.sql] } : { jsonPredicateHints: c.json };
      const answer = await client.query("svc", "default", "hostile", body);
      const kept = new Set(answer.files.map((f) => f.id as string));
      const label = c.sql ?? c.json;
      for (const [name, file] of byName) {
        const matches = await countMatches(judge, file.path, c.judge);
        if (!kept.has(file.sha256) && matches > 0) failures.push(`${label}: left out ${name}, which has ${matches}`);
        if (c.keeps.includes(name) && !kept.has(file.sha256)) failures.push(`${label}: left out ${name}`);
        if (c.skips.includes(name) && kept.has(file.sha256)) failures.push(`${label}: kept ${name}`);
      }
    }
    assertEquals(failures, []);
  } finally {
    judge.closeSync();
    await serving.shutdown();
    await dir.cleanup();
  }
});
