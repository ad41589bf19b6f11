/**
 * Counting over kept columns answers exactly what DuckDB's `GROUPING SETS`
 * statement answers (`viewFacetsAndTotal`), judged on real Parquet parts
 * holding the values that trip counting up: nulls, ties, text on both sides
 * of U+FFFF and with NUL, integers at int64's ends, dates before 1970, a
 * version of three parts. Views the kept columns do not count (a search, a
 * float, text compared by order, a value DuckDB refuses or reads its own
 * way) are left to DuckDB: `keptCounts` says null, never another answer.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import {
  type ColumnFilter,
  type KeptColumn,
  keptCounts,
  keptView,
  openReadEngine,
  readKeptColumn,
  viewFacetsAndTotal,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";

const part = (from: number, n: number) =>
  `SELECT (i % 7 - 3)::BIGINT AS small,
     CASE WHEN i % 11 = 0 THEN NULL WHEN i % 5 = 0 THEN 9223372036854775807 WHEN i % 5 = 1 THEN -9223372036854775808
          ELSE (i * 7919) % 1000 END::BIGINT AS wide,
     CASE WHEN i % 9 = 0 THEN NULL ELSE ['b', 'a', 'Ａ', '😀', '', 'a' || chr(0), 'A', 'ab', '', 'b,c'][i % 10 + 1] END AS t,
     CASE WHEN i % 13 = 0 THEN NULL ELSE DATE '1969-12-25' + (i % 17)::INTEGER END AS d,
     (i % 3 = 0) AS flag,
     i::INTEGER AS id,
     (i % 4) / 3.0 AS x
   FROM range(${from}, ${from + n}) r(i)`;

const FILTERS: ColumnFilter[] = [
  { column: "small", op: "eq", values: ["0"] },
  { column: "small", op: "ne", values: ["-3"] },
  { column: "small", op: "gt", values: ["1"] },
  { column: "small", op: "gte", values: ["-2"] },
  { column: "small", op: "lt", values: ["0"] },
  { column: "small", op: "lte", values: ["-99"] },
  { column: "small", op: "in", values: ["3", "-1", "17"] },
  { column: "wide", op: "gte", values: ["9223372036854775807"] },
  { column: "wide", op: "lt", values: ["-9223372036854775807"] },
  { column: "wide", op: "ne", values: ["500"] },
  { column: "wide", op: "isnull", values: [] },
  { column: "wide", op: "gt", values: ["9007199254740993"] },
  { column: "id", op: "gte", values: ["117"] },
  { column: "id", op: "lt", values: ["40"] },
  { column: "id", op: "in", values: ["007", "9", "-0"] },
  { column: "t", op: "eq", values: [""] },
  { column: "t", op: "eq", values: ["Ａ"] },
  { column: "t", op: "ne", values: ["a"] },
  { column: "t", op: "in", values: ["😀", "b,c", "zz"] },
  { column: "t", op: "contains", values: ["a"] },
  { column: "t", op: "contains", values: [""] },
  { column: "t", op: "startswith", values: ["a"] },
  { column: "t", op: "notnull", values: [] },
  { column: "d", op: "gte", values: ["1970-01-01"] },
  { column: "d", op: "lt", values: ["1969-12-31"] },
  { column: "d", op: "eq", values: ["1970-01-05"] },
  { column: "d", op: "isnull", values: [] },
  { column: "flag", op: "notnull", values: [] },
];

/** Views left to DuckDB. */
const NOT_KEPT: ViewSpec[] = [
  { filters: [], search: "a", sort: null },
  { filters: [{ column: "x", op: "gt", values: ["0.5"] }], search: null, sort: null },
  { filters: [{ column: "t", op: "gt", values: ["a"] }], search: null, sort: null },
  { filters: [{ column: "flag", op: "eq", values: ["true"] }], search: null, sort: null },
  { filters: [{ column: "id", op: "contains", values: ["1"] }], search: null, sort: null },
];

/** Values DuckDB reads its own way or refuses: counted by DuckDB. */
const LEFT_TO_DUCKDB: ColumnFilter[] = [
  { column: "id", op: "eq", values: ["+5"] },
  { column: "id", op: "eq", values: [" 5"] },
  { column: "d", op: "eq", values: ["1970-1-5"] },
  { column: "id", op: "gte", values: ["99999999999"] },
  { column: "t", op: "contains", values: ["😀"] },
  { column: "t", op: "startswith", values: ["\ud800"] },
];

Deno.test("kept columns count every view they take exactly as DuckDB's GROUPING SETS does, and leave the rest", async () => {
  const dir = await tempDir("svc-kept-counts-");
  const w = new StoreWriter(dir.path);
  let paths: string[];
  try {
    paths = (await w.version("odd", 1, {
      parts: [{ sql: part(0, 90), rowGroupSize: 16 }, { sql: part(90, 40) }, { sql: part(130, 70), rowGroupSize: 7 }],
    })).partPaths;
  } finally {
    w.close();
  }
  const engine = await openReadEngine(dir.path);
  try {
    const shape = await viewShape(engine, paths);
    const kept = new Map<string, KeptColumn>();
    for (const name of ["small", "wide", "t", "d", "flag", "id"]) {
      const column = await readKeptColumn(engine, paths, shape.columns, shape.uniform, name, 2 ** 30);
      assert(column !== null, name);
      assertEquals(column.codes.length, 200, name);
      kept.set(name, column);
    }
    assertEquals(
      await readKeptColumn(engine, paths, shape.columns, shape.uniform, "x", 2 ** 30),
      null,
      "a float is not kept",
    );
    assertEquals(
      await readKeptColumn(engine, paths, shape.columns, shape.uniform, "t", 399),
      null,
      "200 codes of 2 bytes and 11 texts are more than 399 bytes: not read",
    );
    assert(
      await readKeptColumn(engine, paths, shape.columns, shape.uniform, "small", 500) !== null,
      "400 + 7 x 8 bytes",
    );
    const facets = ["t", "small", "wide", "d", "flag"];
    const views: ViewSpec[] = [
      { filters: [], search: null, sort: null },
      ...FILTERS.map((f) => ({ filters: [f], search: null, sort: null })),
      ...FILTERS.flatMap((f, i) =>
        FILTERS.slice(i + 1, i + 4).map((g) => ({ filters: [f, g], search: null, sort: null }))
      ),
    ];
    for (const spec of views) {
      for (const [asked, size] of [[facets, 3], [["t", "d"], 30], [[], 5]] as const) {
        const label = `${JSON.stringify(spec.filters)} facets ${asked.join(",")} size ${size}`;
        assert(keptView(shape.columns, spec), label);
        const mine = keptCounts(kept, shape.columns, spec, asked, size);
        if (spec.filters.length === 0 && asked.length === 0) {
          assertEquals(mine, null, "a view of every record without facets is the parts' count");
          continue;
        }
        assertEquals(mine, await viewFacetsAndTotal(engine, paths, shape, spec, asked, size), label);
      }
    }
    for (const spec of NOT_KEPT) {
      assertEquals(keptView(shape.columns, spec), false, JSON.stringify(spec));
      assertEquals(keptCounts(kept, shape.columns, spec, ["t"], 5), null, JSON.stringify(spec));
    }
    for (const filter of LEFT_TO_DUCKDB) {
      assertEquals(keptCounts(kept, shape.columns, { filters: [filter], search: null, sort: null }, ["t"], 5), null);
    }
    const withoutD = new Map([...kept].filter(([name]) => name !== "d"));
    assertEquals(keptCounts(withoutD, shape.columns, { filters: [], search: null, sort: null }, ["d"], 5), null);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});
