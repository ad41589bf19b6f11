/**
 * Downloads of views and SQL answers (issue 29): CSV, JSON, JSON lines and
 * Parquet hold the records the data page shows for the same view, in its
 * order; hostile values and 64-bit integers come back exact; Parquet is
 * read back with DuckDB; temporary files never stay.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertEquals, assertRejects, type Json } from "../support/assert.ts";
import { citiesStore, citySql, StoreWriter } from "../support/store_fixture.ts";
import { downloadFolders, parseCsv, readParquet } from "../support/downloads.ts";
import { withTypedStore } from "./_typed_store.ts";
import {
  openReadEngine,
  type ReadEngine,
  resultParquet,
  resultText,
  type Slice,
  type TextFormat,
  ViewError,
  viewPage,
  viewParquet,
  viewShape,
  type ViewSpec,
  viewText,
} from "../../src/parquet/mod.ts";

const WHOLE: ViewSpec = { filters: [], search: null, sort: null };
const ALL: Slice = { offset: 0, limit: null };

async function partsOf(root: string, slug: string, version: number): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, slug, `v${version}`, "manifest.json"), "utf8"));
  return manifest.parts.map((p: Json) => join(root, slug, "parts", `${p.sha256}.parquet`));
}

const HOSTILE = `SELECT * FROM (VALUES
  (1, 'a,b', 9007199254740993::BIGINT),
  (2, 'say "hi"', -9007199254740993::BIGINT),
  (3, 'line1' || chr(10) || 'line2', 1),
  (4, 'cr' || chr(13) || chr(10) || 'lf', 2),
  (5, ' lead', 3),
  (6, 'trail ', 4),
  (7, '=cmd|'' /C calc''!A0', 5),
  (8, '+1', 6),
  (9, '-1', 7),
  (10, '@SUM(A1)', 8),
  (11, 'é😀 ünï', 9),
  (12, '', 10),
  (13, NULL, NULL),
  (14, chr(9) || 'tab', 11)
) t(id, s, big)`;

interface Fixture {
  engine: ReadEngine;
  root: string;
  paths: (slug: string, version?: number) => Promise<string[]>;
}

async function withStore(fn: (f: Fixture) => Promise<void>): Promise<void> {
  await withTypedStore(async (root) => {
    await citiesStore(root);
    const w = new StoreWriter(root);
    await w.version("hostile", 1, { parts: [{ sql: HOSTILE }] });
    await w.version("large", 1, { parts: [{ sql: citySql(0, 100_000) }] });
    w.close();
    const engine = await openReadEngine(root);
    try {
      await fn({ engine, root, paths: (slug, version = 1) => partsOf(root, slug, version) });
    } finally {
      await engine.close();
    }
  });
}

async function text(engine: ReadEngine, paths: string[], spec: ViewSpec, format: TextFormat, slice = ALL) {
  const shape = await viewShape(engine, paths);
  return await new Response(await viewText(engine, paths, shape, spec, format, slice)).text();
}

async function page(engine: ReadEngine, paths: string[], spec: ViewSpec, offset = 0, limit = 100_000) {
  return (await viewPage(engine, paths, await viewShape(engine, paths), spec, offset, limit)).records;
}

/** A record's value as its CSV cell should read. */
function cell(value: Json): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

const VIEWS: ViewSpec[] = [
  WHOLE,
  {
    filters: [{ column: "note", op: "notnull", values: [] }, { column: "id", op: "lt", values: ["100"] }],
    search: null,
    sort: { column: "score", descending: true },
  },
  { filters: [], search: "CITY-5", sort: { column: "name", descending: false } },
];

Deno.test("view downloads: CSV, JSON and JSON lines hold the data page's records of the view, in its order", async () => {
  await withStore(async ({ engine, paths }) => {
    const parts = await paths("cities", 2);
    for (const spec of VIEWS) {
      const records = await page(engine, parts, spec);
      const lines = await text(engine, parts, spec, "jsonl");
      assertEquals(lines, records.map((r) => r + "\n").join(""), JSON.stringify(spec));
      const json = await text(engine, parts, spec, "json");
      assertEquals(JSON.parse(json), records.map((r) => JSON.parse(r)));
      assert(json.startsWith("[\n{") && json.endsWith("}\n]\n"), json.slice(0, 20));
      const csv = parseCsv(await text(engine, parts, spec, "csv"));
      assertEquals(csv[0], ["id", "name", "population", "score", "note"]);
      const expected = records.map((r) => JSON.parse(r)).map((r) => csv[0].map((k) => cell(r[k!])));
      assertEquals(csv.slice(1), expected, JSON.stringify(spec));
    }
    assertEquals((await text(engine, parts, VIEWS[1], "csv")).split("\r\n").length, 1 + 66 + 1);
  });
});

Deno.test("view downloads: a slice is the page of the same offset and limit; an empty view is a header or []", async () => {
  await withStore(async ({ engine, paths }) => {
    const parts = await paths("cities", 2);
    const sorted = VIEWS[1];
    for (const [offset, limit] of [[10, 5], [0, 1], [60, null], [595, 1000]] as const) {
      const lines = await text(engine, parts, sorted, "jsonl", { offset, limit });
      const expected = await page(engine, parts, sorted, offset, limit ?? 100_000);
      assertEquals(lines, expected.map((r) => r + "\n").join(""), `${offset} ${limit}`);
    }
    const none: ViewSpec = { filters: [{ column: "id", op: "gt", values: ["100000"] }], search: null, sort: null };
    assertEquals(await text(engine, parts, none, "csv"), "id,name,population,score,note\r\n");
    assertEquals(await text(engine, parts, none, "json"), "[\n]\n");
    assertEquals(await text(engine, parts, none, "jsonl"), "");
  });
});

Deno.test("view downloads: hostile text and integers beyond 2^53 come back exact from CSV and JSON", async () => {
  await withStore(async ({ engine, paths }) => {
    const parts = await paths("hostile");
    const records = (await page(engine, parts, WHOLE)).map((r) => JSON.parse(r.replace(/(-?\d{16,})/g, '"$1"')));
    const csv = parseCsv(await text(engine, parts, WHOLE, "csv"));
    assertEquals(csv[0], ["id", "s", "big"]);
    assertEquals(
      csv.slice(1),
      records.map((r) => [String(r.id), r.s ?? null, r.big === undefined ? null : String(r.big)]),
    );
    assertEquals(csv[1], ["1", "a,b", "9007199254740993"]);
    assertEquals(csv[2], ["2", 'say "hi"', "-9007199254740993"]);
    assertEquals(csv[7][1], "=cmd|' /C calc'!A0", "formula-looking text is written as it is");
    assertEquals(csv[12][1], "", "an empty string is a quoted empty field");
    assertEquals(csv[13][1], null, "a null is an empty field");
    const raw = await text(engine, parts, WHOLE, "csv");
    assert(raw.includes('\r\n12,"",10\r\n13,,\r\n'), "empty string and null differ");
    assert(raw.includes('\r\n5," lead",3\r\n'), "leading space quoted");
    const json = await text(engine, parts, WHOLE, "json");
    assert(json.includes('"big":9007199254740993') && json.includes('"big":-9007199254740993'), "exact digits");
    assertEquals(JSON.parse(json.replace(/(-?\d{16,})/g, '"$1"')), records);
  });
});

Deno.test("view downloads: every column type as CSV cells and JSON lines, as the data page writes them", async () => {
  await withStore(async ({ engine, paths }) => {
    const typed = await paths("typed");
    assertEquals(await text(engine, typed, WHOLE, "jsonl"), (await page(engine, typed, WHOLE)).join("\n") + "\n");
    const csv = parseCsv(await text(engine, typed, WHOLE, "csv"));
    assertEquals(csv[0], [
      "id",
      "big",
      "small",
      "f32",
      "f64",
      "dec",
      "day",
      "at",
      "blob",
      "list",
      "obj",
      "flag",
      "s",
      "nan",
    ]);
    assertEquals(csv[1], [
      "1",
      "9007199254740993",
      "-9223372036854775808",
      "0.1",
      "0.30000000000000004",
      "12345.67",
      "2026-11-22",
      "2026-11-22T03:04:05.123456",
      "00ff10",
      "[1,2,3]",
      '{"a":1,"b":"x"}',
      "true",
      'quote " backslash \\ newline \n unicode é😀',
      null,
    ]);
    assertEquals(csv[2], ["2", "5", ...Array(12).fill(null)]);
    const extra = await paths("extra");
    const extraCsv = parseCsv(await text(engine, extra, WHOLE, "csv"));
    assertEquals(extraCsv[0], ["id", "name", "_extra"]);
    assertEquals(extraCsv[1], ["1", "a", '{"color":"red","huge":123456789012345678901}'], "_extra as its JSON text");
    assertEquals((await text(engine, extra, WHOLE, "jsonl")).split("\n")[0], (await page(engine, extra, WHOLE))[0]);
  });
});

Deno.test("view downloads: a missing column or a value not of its type is a ViewError before anything streams", async () => {
  await withStore(async ({ engine, root, paths }) => {
    const parts = await paths("cities", 2);
    const shape = await viewShape(engine, parts);
    const bad: ViewSpec[] = [
      { filters: [{ column: "id", op: "eq", values: ["abc"] }], search: null, sort: null },
      { filters: [{ column: "nope", op: "eq", values: ["1"] }], search: null, sort: null },
      { filters: [], search: null, sort: { column: "_extra", descending: false } },
    ];
    for (const spec of bad) {
      for (const format of ["csv", "json", "jsonl"] as const) {
        await assertRejects(async () => {
          try {
            await viewText(engine, parts, shape, spec, format, ALL);
          } catch (e) {
            assert(e instanceof ViewError, String(e));
            throw e;
          }
        });
      }
    }
    const before = await downloadFolders();
    await assertRejects(() => viewParquet([root], parts, shape, bad[0], ALL), /not of its column's type/);
    const after = await downloadFolders();
    assertEquals([...after].filter((n) => !before.has(n)), [], "a failed write leaves no folder");
  });
});

Deno.test("view downloads: a text download cancelled midway stops there; the next one streams in full", async () => {
  await withStore(async ({ engine, paths }) => {
    const parts = await paths("large");
    const shape = await viewShape(engine, parts);
    const body = await viewText(engine, parts, shape, WHOLE, "jsonl", ALL);
    const reader = body.getReader();
    const first = await reader.read();
    assert(!first.done && first.value.length > 0);
    await reader.cancel();
    const whole = await new Response(await viewText(engine, parts, shape, WHOLE, "csv", ALL)).text();
    assertEquals(whole.split("\r\n").length, 100_002, "the header, 100,000 records and the last line end");
  });
});

Deno.test("view downloads: Parquet holds the view's records and the parts' types; its file never stays", async () => {
  await withStore(async ({ engine, root, paths }) => {
    const before = await downloadFolders();
    for (const [slug, version] of [["cities", 2], ["typed", 1], ["extra", 1], ["hostile", 1]] as const) {
      const parts = await paths(slug, version);
      const shape = await viewShape(engine, parts);
      for (const spec of slug === "cities" ? VIEWS : [WHOLE]) {
        for (const slice of [ALL, { offset: 3, limit: 7 }]) {
          const file = await viewParquet([root], parts, shape, spec, slice);
          const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
          assertEquals(bytes.length, file.size);
          const back = await readParquet(bytes);
          const expected = await page(engine, parts, spec, slice.offset, slice.limit ?? 100_000);
          assertEquals(back.records, expected, `${slug} ${JSON.stringify(spec)} ${JSON.stringify(slice)}`);
          assertEquals(back.types, shape.columns.map((c) => [c.name, c.type]));
        }
      }
    }
    const large = await paths("large");
    const file = await viewParquet([root], large, await viewShape(engine, large), WHOLE, ALL);
    const reader = file.body.getReader();
    await reader.read();
    await reader.cancel();
    const controller = new AbortController();
    controller.abort();
    await assertRejects(() =>
      viewParquet([root], large, { columns: [], uniform: true, nonNull: [] }, WHOLE, ALL, { signal: controller.signal })
    );
    const after = await downloadFolders();
    assertEquals([...after].filter((n) => !before.has(n)), [], "no temporary folder is left");
  });
});

/** A SQL answer's rows as the SQL worker writes them (integers beyond 2^53 as strings, decimals as numbers). */
const ANSWER = {
  columns: ["id", "ID", "s", "dec", "big", "blob", "list", "obj", "day", "when", "flag", "f", ""],
  types: [
    "INTEGER",
    "INTEGER",
    "VARCHAR",
    "DECIMAL(38,9)",
    "BIGINT",
    "BLOB",
    "BIGINT[]",
    "STRUCT(a INTEGER, b VARCHAR)",
    "DATE",
    "TIMESTAMP WITH TIME ZONE",
    "BOOLEAN",
    "DOUBLE",
    "INTERVAL",
  ],
  rows: `[[1,2,"a,\\"b\\"\\n=c","12345678901234567890.123456789","9007199254740993","00ff10",[1,"9007199254740993"],` +
    `{"a":1,"b":"]x["},"2026-11-22","2026-11-22T03:04:05.123456+00:00",true,0.1,"P1DT2H"],` +
    `[null,null,"",null,null,null,null,null,null,null,null,null,null]]`,
};

Deno.test("SQL answers: CSV and JSON keep every cell as the answer writes it, names made unique", async () => {
  const csv = parseCsv(await new Response(resultText(ANSWER, "csv")).text());
  assertEquals(csv[0], [
    "id",
    "ID_2",
    "s",
    "dec",
    "big",
    "blob",
    "list",
    "obj",
    "day",
    "when",
    "flag",
    "f",
    "column_13",
  ]);
  assertEquals(csv[1], [
    "1",
    "2",
    'a,"b"\n=c',
    "12345678901234567890.123456789",
    "9007199254740993",
    "00ff10",
    '[1,"9007199254740993"]',
    '{"a":1,"b":"]x["}',
    "2026-11-22",
    "2026-11-22T03:04:05.123456+00:00",
    "true",
    "0.1",
    "P1DT2H",
  ]);
  assertEquals(csv[2], [null, null, "", ...Array(10).fill(null)]);
  const lines = (await new Response(resultText(ANSWER, "jsonl")).text()).split("\n");
  assertEquals(lines.length, 3);
  assert(lines[0].startsWith('{"id":1,"ID_2":2,"s":"a,\\"b\\"\\n=c","dec":"12345678901234567890.123456789"'), lines[0]);
  const json = await new Response(resultText(ANSWER, "json")).text();
  assertEquals(JSON.parse(json), lines.slice(0, 2).map((l) => JSON.parse(l)));
  const empty = { ...ANSWER, rows: "[]" };
  assertEquals(await new Response(resultText(empty, "json")).text(), "[\n]\n");
  assertEquals((await new Response(resultText(empty, "csv")).text()).split("\r\n").length, 2);
});

Deno.test("SQL answers: Parquet keeps the types it can hold exactly and writes the rest as text", async () => {
  const before = await downloadFolders();
  const file = await resultParquet(ANSWER);
  const back = await readParquet(new Uint8Array(await new Response(file.body).arrayBuffer()));
  assertEquals(back.types, [
    ["id", "INTEGER"],
    ["ID_2", "INTEGER"],
    ["s", "VARCHAR"],
    ["dec", "DECIMAL(38,9)"],
    ["big", "BIGINT"],
    ["blob", "BLOB"],
    ["list", "BIGINT[]"],
    ["obj", "VARCHAR"],
    ["day", "DATE"],
    ["when", "TIMESTAMP WITH TIME ZONE"],
    ["flag", "BOOLEAN"],
    ["f", "DOUBLE"],
    ["column_13", "VARCHAR"],
  ]);
  assertEquals(back.records, [
    '{"id":1,"ID_2":2,"s":"a,\\"b\\"\\n=c","dec":12345678901234567890.123456789,"big":9007199254740993,' +
    '"blob":"00ff10","list":[1,9007199254740993],"obj":"{\\"a\\":1,\\"b\\":\\"]x[\\"}","day":"2026-11-22",' +
    '"when":"2026-11-22T03:04:05.123456+00:00","flag":true,"f":0.1,"column_13":"P1DT2H"}',
    '{"s":""}',
  ]);
  const empty = await resultParquet({ ...ANSWER, rows: "[]" });
  const none = await readParquet(new Uint8Array(await new Response(empty.body).arrayBuffer()));
  assertEquals([none.records, none.types.length], [[], 13]);
  const after = await downloadFolders();
  assertEquals([...after].filter((n) => !before.has(n)), []);
});

Deno.test("view downloads: the whole of a one-part version as Parquet is the part itself, byte for byte", async () => {
  await withStore(async ({ engine, root, paths }) => {
    const [part] = await paths("large");
    const shape = await viewShape(engine, [part]);
    const file = await viewParquet([root], [part], shape, WHOLE, ALL);
    const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
    assertEquals(bytes, await Deno.readFile(part));
    const sliced = await viewParquet([root], [part], shape, WHOLE, { offset: 0, limit: 10 });
    assertEquals((await readParquet(new Uint8Array(await new Response(sliced.body).arrayBuffer()))).records.length, 10);
  });
});
