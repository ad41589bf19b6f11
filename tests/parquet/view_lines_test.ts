/**
 * Downloads whose lines DuckDB builds (issue 47): byte for byte what the
 * JavaScript writers give for the same view, in every format, for values
 * chosen to differ (doubles round the thresholds of their text, 32-bit
 * floats, decimals with their scale, 128-bit integers, text that must be
 * quoted or escaped, `_extra`), over one part and many, read in ranges (with
 * the parts' groups) and as one query (without).
 *
 * @module
 */
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { openStore } from "../../src/store/mod.ts";
import {
  openReadEngine,
  pageReader,
  type ReadEngine,
  type Slice,
  type TextFormat,
  ViewError,
  viewShape,
  type ViewSpec,
  viewText,
} from "../../src/parquet/mod.ts";
import { rowRanges, sparseView } from "../../src/parquet/_view_lines.ts";

const DOUBLES = [
  "0.1",
  "0.1::DOUBLE + 0.2::DOUBLE",
  "1e21",
  "-1e21",
  "1e15",
  "1e16",
  "999999999999999.9",
  "123456789012345.6",
  "5e-324",
  "1.7976931348623157e308",
  "-0.0",
  "1e-7",
  "1.5e-7",
  "123456789.123456789",
  "2.5e-5",
  "1e300",
  "0.000001",
  "1.5",
  "-2.75",
  "9007199254740993",
  "3.4e38",
  "1e20",
  "123456789012345680000",
  "'nan'",
  "'inf'",
  "'-inf'",
  "NULL",
];
const FLOATS = ["0.1", "3.4e38", "1e-7", "-0.0", "16777217", "1.1", "'nan'", "NULL", "1e20", "123.456"];
const DECIMALS = ["12345.67", "1.50", "-0.5", "0", "0.01", "NULL"];
const TEXTS = [
  "'plain'",
  "'a,b'",
  `'say "hi"'`,
  "'line1' || chr(10) || 'line2'",
  "'cr' || chr(13)",
  "' lead'",
  "'trail '",
  "chr(9) || 'tab'",
  "'tab' || chr(9)",
  "''",
  "NULL",
  "'é😀 ünï </script> ' || chr(8232) || chr(1) || chr(31) || chr(127) || ' \\ back'",
  // Every control character DuckDB escapes with upper-case hex, and text that only looks like such an escape.
  "chr(11) || chr(14) || chr(15) || chr(26) || chr(27) || chr(28) || chr(29) || chr(30) || chr(31) || ' \\u001F \\' || chr(31)",
  "'only the text \\u001F, no control character'",
  "'=cmd|'' /C calc''!A0'",
];
const EXTRAS = [
  `'{"color":"red","huge":123456789012345678901}'`,
  "'{}'",
  "' {\"spaced\":1} '",
  "'[1,2]'",
  "NULL",
  '\'{"a":"x,y"}\'',
  // Stored text is inlined as it is, upper-case escapes and all, as the JavaScript writers do.
  '\'{"esc":"\\u001F"}\'',
];

/** The columns of a version's parts, as the SELECT list over the values (see {@linkcode valuesSql}). */
const LAYOUTS = {
  "with an _extra column": "*",
  "without one (the line mended whole)": "* EXCLUDE (_extra)",
  "with a first column that holds nulls (the members joined by concat_ws)": "d, * EXCLUDE (d)",
  "with text and doubles that hold no null (their fields and members need no null's test)":
    "id, coalesce(d, 1e21) AS d, f, dec, flag, coalesce(s, '') AS s, huge, u",
} as const;

/** Rows mixing every list above, cycling each, as the SELECT list `columns` gives them. */
function valuesSql(rows: number, from = 0, columns = "*"): string {
  const pick = (list: string[], i: number) => list[i % list.length];
  const lines = Array.from({ length: rows }, (_, k) => {
    const i = from + k;
    return `(${i}, ${pick(DOUBLES, i)}::DOUBLE, ${pick(FLOATS, i)}::FLOAT, ${pick(DECIMALS, i)}::DECIMAL(10,2), ` +
      `${i % 3 === 0 ? "NULL" : i % 2 === 0}, ${
        pick(TEXTS, i)
      }, CAST(170141183460469231731687303715884105727::HUGEINT // (${i} + 1) * (CASE WHEN ${i} % 2 = 0 THEN 1 ELSE -1 END) AS HUGEINT), ` +
      `${i}::UBIGINT, ${pick(EXTRAS, i)})`;
  });
  return `SELECT ${columns} FROM (VALUES ${lines.join(",\n")}) t(id, d, f, dec, flag, s, huge, u, _extra)`;
}

/** A filter passing one of the first part's 40 rows and each text once further on. */
const SPARSE: ViewSpec["filters"][number] = {
  column: "id",
  op: "in",
  values: ["0", ...Array.from({ length: TEXTS.length }, (_, i) => String(41 + i))],
};
const SPECS: ViewSpec[] = [
  { filters: [], search: null, sort: null },
  { filters: [{ column: "id", op: "gte", values: ["5"] }], search: null, sort: null },
  { filters: [], search: "A", sort: null },
  { filters: [{ column: "flag", op: "notnull", values: [] }], search: null, sort: { column: "d", descending: true } },
  // Sparse (see sparseView): one of the first part's rows, then a row of each text from the third part on.
  { filters: [SPARSE], search: null, sort: null },
  { filters: [SPARSE], search: null, sort: { column: "s", descending: false } },
];
const SLICES: Slice[] = [{ offset: 0, limit: null }, { offset: 3, limit: 40 }, { offset: 150, limit: 1 }];
const FORMATS: TextFormat[] = ["csv", "jsonl", "json"];

async function withParts(
  fn: (engine: ReadEngine, paths: string[], groups: number[][]) => Promise<void>,
  columns = "*",
) {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("values", 1, {
      parts: [
        { sql: valuesSql(40, 0, columns), rowGroupSize: 7 },
        { sql: valuesSql(1, 40, columns) },
        { sql: valuesSql(119, 41, columns), rowGroupSize: 50 },
      ],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("values", 1))!;
      const groups = await pageReader(engine).partGroups(version);
      await fn(engine, version.parts.map((p) => p.path), groups);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
}

async function download(
  engine: ReadEngine,
  paths: string[],
  spec: ViewSpec,
  format: TextFormat,
  slice: Slice,
  options: Parameters<typeof viewText>[6],
): Promise<string> {
  const shape = await viewShape(engine, paths, { nullCounts: true });
  return await new Response(await viewText(engine, paths, shape, spec, format, slice, options)).text();
}

for (const [what, columns] of Object.entries(LAYOUTS)) {
  Deno.test(`DuckDB-built download lines are byte for byte the JavaScript writers', in ranges and in one query, ${what}`, async () => {
    await withParts(async (engine, paths, groups) => {
      for (const spec of SPECS) {
        for (const slice of SLICES) {
          for (const format of FORMATS) {
            const what = `${format} ${JSON.stringify(spec)} ${JSON.stringify(slice)}`;
            const expected = await download(engine, paths, spec, format, slice, { writer: "javascript" });
            assertEquals(await download(engine, paths, spec, format, slice, {}), expected, `one query: ${what}`);
            for (const rangeRows of [10, 1000]) {
              const ranged = await download(engine, paths, spec, format, slice, { groups, rangeRows });
              assertEquals(ranged, expected, `in ranges of ${rangeRows} rows: ${what}`);
            }
          }
        }
      }
    }, columns);
  });
}

Deno.test("a view passing under an eighth of its first part's sampled rows is sparse; one passing more, or a whole one, is not", async () => {
  await withParts(async (engine, paths, groups) => {
    const source = { engine, paths, groups, shape: await viewShape(engine, paths, { nullCounts: true }) };
    const only = (filter: ViewSpec["filters"][number]): ViewSpec => ({ filters: [filter], search: null, sort: null });
    const below = (n: number) => only({ column: "id", op: "lt", values: [String(n)] });
    assertEquals(await sparseView(source, only(SPARSE)), true);
    assertEquals(await sparseView(source, below(4)), true, "4 of the first part's 40 rows");
    assertEquals(await sparseView(source, below(5)), false, "5 of 40 is an eighth, not under");
    assertEquals(await sparseView(source, only({ column: "id", op: "gte", values: ["5"] })), false);
    assertEquals(await sparseView(source, SPECS[0]), false, "a view of every record");
    assertEquals(await sparseView({ ...source, groups: null }, only(SPARSE)), false, "rows not known");
    for (const options of [{ groups }, {}]) {
      const lines = await download(engine, paths, only(SPARSE), "jsonl", { offset: 0, limit: null }, options);
      const ids = lines.trimEnd().split("\n").map((l) => JSON.parse(l).id);
      assertEquals(ids, SPARSE.values.map(Number), "an IN list's records in the version's order");
    }
    // A sample's answer is kept (a part never changes): with the first part broken, the same sample is not read again.
    await Deno.writeTextFile(paths[0], "not parquet");
    assertEquals(await sparseView(source, only(SPARSE)), true);
    assertEquals(await sparseView(source, below(4)), true);
    await assertRejects(() => sparseView(source, below(3))); // a sample not taken before reads the part
  });
});

Deno.test("a view's columns that hold no null: in every part, no row group's footer counting one", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const rows = (from: number, b: string) =>
      `SELECT (${from} + i)::BIGINT AS a, ${b} AS b, 'x' AS c, i::INTEGER AS d FROM range(30) r(i)`;
    await w.version("nulls", 1, {
      parts: [
        { sql: rows(0, "i::INTEGER"), rowGroupSize: 10 },
        // A null in the last row group of the second part only.
        { sql: rows(30, "CASE WHEN i = 29 THEN NULL ELSE i END"), rowGroupSize: 10 },
        // No column c here: its records read it as null.
        { sql: `SELECT (60 + i)::BIGINT AS a, i::INTEGER AS b, i::INTEGER AS d FROM range(5) r(i)` },
      ],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("nulls", 1))!;
      const paths = version.parts.map((p) => p.path);
      assertEquals((await viewShape(engine, paths, { nullCounts: true })).nonNull, ["a", "d"]);
      assertEquals((await viewShape(engine, paths.slice(0, 1), { nullCounts: true })).nonNull, ["a", "b", "c", "d"]);
      assertEquals((await viewShape(engine, paths.slice(0, 2), { nullCounts: true })).nonNull, ["a", "c", "d"]);
      const lines = await download(engine, paths, SPECS[0], "jsonl", { offset: 0, limit: null }, {});
      const expected = await download(engine, paths, SPECS[0], "jsonl", { offset: 0, limit: null }, {
        writer: "javascript",
      });
      assertEquals(lines, expected);
      assertEquals(lines.split("\n")[59], '{"a":59,"c":"x","d":29}', "a null left out");
      assertEquals(lines.split("\n")[60], '{"a":60,"b":0,"d":0}');
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("DuckDB-built downloads: every record of a large part once, in order, across blocks and ranges", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const rows = (from: number, n: number) =>
      `SELECT (${from} + i)::BIGINT AS id, 'r' || (${from} + i) AS s FROM range(${n}) r(i)`;
    await w.version("big", 1, {
      parts: [{ sql: rows(0, 40_000) }, { sql: rows(40_000, 3) }, { sql: rows(40_003, 20_000) }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("big", 1))!;
      const paths = version.parts.map((p) => p.path);
      const groups = await pageReader(engine).partGroups(version);
      const csv = await download(engine, paths, SPECS[0], "csv", { offset: 0, limit: null }, {
        groups,
        rangeRows: 16_384,
      });
      const lines = csv.split("\r\n");
      assertEquals(lines.length, 1 + 60_003 + 1);
      assertEquals(lines[1], "0,r0");
      for (let i = 1; i <= 60_003; i++) assert(lines[i] === `${i - 1},r${i - 1}`, `line ${i}: ${lines[i]}`);
      for (const limit of [40_000, 40_003]) {
        const cut = await download(engine, paths, SPECS[0], "csv", { offset: 0, limit }, { groups, rangeRows: 50_000 });
        assertEquals(cut.split("\r\n").length, 1 + limit + 1, `a slice of ${limit}, ending where a part ends`);
      }
      const slice = await download(engine, paths, SPECS[0], "jsonl", { offset: 39_999, limit: 5 }, { groups });
      assertEquals(slice.trimEnd().split("\n").map((l) => JSON.parse(l).id), [39_999, 40_000, 40_001, 40_002, 40_003]);
      const odd: ViewSpec = { filters: [{ column: "id", op: "gt", values: ["59990"] }], search: null, sort: null };
      const tail = await download(engine, paths, odd, "json", { offset: 0, limit: null }, { groups });
      assertEquals(JSON.parse(tail).map((r: { id: number }) => r.id), [
        59_991,
        59_992,
        59_993,
        59_994,
        59_995,
        59_996,
        59_997,
        59_998,
        59_999,
        60_000,
        60_001,
        60_002,
      ]);
      const none: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["0"] }], search: null, sort: null };
      assertEquals(await download(engine, paths, none, "json", { offset: 0, limit: null }, { groups }), "[\n]\n");
      assertEquals(await download(engine, paths, none, "csv", { offset: 0, limit: null }, { groups }), "id,s\r\n");
      const bad: ViewSpec = { ...none, filters: [{ column: "id", op: "lt", values: ["x"] }] };
      const refused = await assertRejects(() =>
        download(engine, paths, bad, "csv", { offset: 0, limit: null }, { groups })
      );
      assert(refused instanceof ViewError, String(refused));
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("row ranges: whole small parts together, a big part or a slice's ends in ranges ending with row groups", () => {
  const ALL = { offset: 0, limit: null };
  assertEquals(rowRanges([[0, 10], [0, 10], [0, 40, 80, 100]], ALL, 50), [
    { first: 0, last: 2, from: null, to: null },
    { first: 2, last: 3, from: 0, to: 40 },
    { first: 2, last: 3, from: 40, to: 80 },
    { first: 2, last: 3, from: 80, to: 100 },
  ]);
  assertEquals(rowRanges([[0, 10], [0, 10], [0, 100]], { offset: 15, limit: 10 }, 50), [
    { first: 1, last: 2, from: 5, to: 10 },
    { first: 2, last: 3, from: 0, to: 5 },
  ]);
  assertEquals(
    rowRanges([[0, 200]], ALL, 50).map((r) => r.to),
    [50, 100, 150, 200],
    "a row group past the rows is cut",
  );
  assertEquals(rowRanges([[0, 30, 60, 90]], ALL, 70).map((r) => r.to), [60, 90], "two row groups fit, not three");
  assertEquals(rowRanges([[0, 10], [0, 10]], { offset: 20, limit: null }, 50), []);
  assertEquals(
    rowRanges([[0, 10], [0, 10], [0, 10]], { offset: 0, limit: 20 }, 50),
    [{ first: 0, last: 2, from: null, to: null }],
    "a slice that ends where a part ends reads no part after it",
  );
  assertEquals(rowRanges([[0, 10], [0, 10], [0, 10]], { offset: 10, limit: 10 }, 50), [
    { first: 1, last: 2, from: null, to: null },
  ]);
  const million = [...Array.from({ length: 9 }, (_, g) => g * 122_880), 1_000_000];
  assertEquals(
    rowRanges([million], ALL, 4 * 122_880).map((r) => r.to),
    [491_520, 1_000_000],
    "four whole row groups a range, the few rows left over in the last, not a query of their own",
  );
  assertEquals(
    rowRanges([million], ALL, 2 * 122_880).map((r) => r.to),
    [245_760, 491_520, 737_280, 1_000_000],
    "two whole row groups a range: both threads busy to each range's end",
  );
  assertEquals(rowRanges([[0, 100]], ALL, 45).map((r) => r.to), [45, 100], "a remainder of a quarter joins");
  assertEquals(rowRanges(Array(300).fill([0, 1]), ALL, 1000).length, 2, "256 parts a range at most");
  assertEquals(rowRanges(Array(9).fill([0, 10]), ALL, 40), [
    { first: 0, last: 4, from: null, to: null },
    { first: 4, last: 9, from: null, to: null },
  ], "a last part of a quarter of the rows joins the parts before it");
  assertEquals(
    rowRanges(Array(10).fill([0, 10]), ALL, 40).length,
    3,
    "two parts, half the rows, are a range of their own",
  );
  assertEquals(
    rowRanges(Array(200).fill([0, 5_000]), ALL, 4 * 122_880).map((r) => [r.first, r.last]),
    [[0, 98], [98, 200]],
    "200 parts of 5,000: two queries, not a third for the last four parts",
  );
});
