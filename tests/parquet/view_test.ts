/**
 * Views of a version: filters, search and
 * sort as parameterised DuckDB over the parts, compared with DuckDB asked
 * directly; paging a sorted view shows every record once; hostile column
 * names and values are refused or taken as values.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { openReadEngine } from "../../src/parquet/mod.ts";
import {
  ViewError,
  viewFacets,
  viewFacetsAndTotal,
  viewPage,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/view.ts";

const NONE: ViewSpec = { filters: [], search: null, sort: null };

async function withCities(
  fn: (
    run: (spec: ViewSpec, offset?: number, limit?: number) => Promise<{ ids: number[]; total: number }>,
  ) => Promise<void>,
) {
  const dir = await tempDir();
  const { v2 } = await citiesStore(dir.path);
  const engine = await openReadEngine(dir.path);
  try {
    const paths = (v2.manifest.parts as Json[]).map((p) => join(dir.path, "cities", "parts", `${p.sha256}.parquet`));
    const columns = await viewShape(engine, paths);
    await fn(async (spec, offset = 0, limit = 1000) => {
      const page = await viewPage(engine, paths, columns, spec, offset, limit);
      return { ids: page.records.map((r) => JSON.parse(r).id), total: page.total };
    });
  } finally {
    await engine.close();
    await dir.cleanup();
  }
}

Deno.test("view: no filter keeps the version's order; filters, search and sort pick and order as SQL would", async () => {
  await withCities(async (run) => {
    const all = await run(NONE);
    assertEquals(all.total, 600);
    assertEquals(all.ids, Array.from({ length: 600 }, (_, i) => i));
    const big = await run({
      filters: [{ column: "population", op: "gte", values: ["590000"] }],
      search: null,
      sort: null,
    });
    assertEquals(big.ids, Array.from({ length: 10 }, (_, i) => 590 + i));
    const desc = await run({
      filters: [{ column: "id", op: "lt", values: ["5"] }],
      search: null,
      sort: { column: "score", descending: true },
    });
    assertEquals(desc.ids, [4, 3, 2, 1, 0]);
    const nulls = await run({ filters: [{ column: "note", op: "isnull", values: [] }], search: null, sort: null });
    assertEquals(nulls.total, 200);
    assert(nulls.ids.every((id) => id % 3 === 0));
    const found = await run({ filters: [], search: "CITY-59", sort: null });
    assertEquals(found.ids, [59, ...Array.from({ length: 10 }, (_, i) => 590 + i)]);
    const listed = await run({
      filters: [{ column: "id", op: "in", values: ["7", "3", "500"] }],
      search: null,
      sort: null,
    });
    assertEquals(listed.ids, [3, 7, 500]);
  });
});

Deno.test("view: a long IN list keeps the version's order (DuckDB would make it a join, whose rows come in any order)", async () => {
  await withCities(async (run) => {
    const ids = [0, ...Array.from({ length: 40 }, (_, i) => 300 + i * 7)];
    const shuffled = [...ids].reverse().map(String);
    const spec: ViewSpec = { filters: [{ column: "id", op: "in", values: shuffled }], search: null, sort: null };
    const every = await run(spec);
    assertEquals(every.total, ids.length);
    assertEquals(every.ids, ids);
    assertEquals((await run(spec, 0, 5)).ids, ids.slice(0, 5), "the first page: the first five in the version's order");
    assertEquals((await run(spec, 20, 5)).ids, ids.slice(20, 25));
  });
});

Deno.test("view: paging a view sorted with ties shows every record once", async () => {
  await withCities(async (run) => {
    const seen: number[] = [];
    const spec: ViewSpec = { filters: [], search: null, sort: { column: "note", descending: false } };
    for (let offset = 0; offset < 600; offset += 7) seen.push(...(await run(spec, offset, 7)).ids);
    assertEquals(seen.length, 600);
    assertEquals(new Set(seen).size, 600);
  });
});

Deno.test("view: hostile column names are refused, hostile values are only values", async () => {
  await withCities(async (run) => {
    for (const column of ['id" OR 1=1 --', "_extra", "nope", "id; DROP TABLE x"]) {
      const refused = await run({ filters: [{ column, op: "eq", values: ["1"] }], search: null, sort: null }).then(
        () => null,
        (e) => e,
      );
      assert(refused instanceof ViewError, `${column}: ${refused}`);
    }
    const quoted = await run({
      filters: [{ column: "name", op: "eq", values: ["x' OR '1'='1"] }],
      search: null,
      sort: null,
    });
    assertEquals(quoted.total, 0);
    const typed = await run({
      filters: [{ column: "id", op: "eq", values: ["1; DROP TABLE records"] }],
      search: null,
      sort: null,
    })
      .then(() => null, (e) => e);
    assert(typed instanceof ViewError, String(typed));
  });
});

Deno.test("view: facets count the view's values as GROUP BY does, most frequent first, nulls last among ties", async () => {
  const dir = await tempDir();
  const { v2 } = await citiesStore(dir.path);
  const engine = await openReadEngine(dir.path);
  try {
    const paths = (v2.manifest.parts as Json[]).map((p) => join(dir.path, "cities", "parts", `${p.sha256}.parquet`));
    const shape = await viewShape(engine, paths);
    const spec: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["400"] }], search: null, sort: null };
    const facets = await viewFacets(engine, paths, shape, spec, ["note", "name", "id", "note"], 5);
    assertEquals(facets.map((f) => f.column), ["note", "name", "id"]);
    const withTotal = await viewFacetsAndTotal(engine, paths, shape, spec, ["note"], 5);
    assertEquals([withTotal.facets, withTotal.total], [facets.slice(0, 1), 400], "the view counted in the same scan");
    assertEquals((await viewFacetsAndTotal(engine, paths, shape, spec, [], 5)).total, 400);
    const list = `[${paths.map((p) => `'${p}'`).join(",")}]`;
    for (const facet of facets) {
      const expected = await engine.use(async (c) =>
        (await c.runAndReadAll(
          `SELECT to_json("${facet.column}")::VARCHAR AS v, count(*)::INTEGER AS n FROM read_parquet(${list}) ` +
            `WHERE id < 400 GROUP BY "${facet.column}" ORDER BY n DESC, "${facet.column}" ASC NULLS LAST`,
        )).getRowObjectsJS()
      );
      const got = facet.values.map((v) => ({ v: v.value, n: v.count }));
      assertEquals(got, expected.slice(0, 5).map((r) => ({ v: String(r.v ?? "null"), n: r.n })), facet.column);
      assertEquals(facet.truncated, expected.length > 5);
    }
    const refused = await viewFacets(engine, paths, shape, spec, ['note" --'], 5).then(() => null, (e) => e);
    assert(refused instanceof ViewError);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("view: parts with a column named like DuckDB's row number, or with other columns, keep the version's order", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const a = join(dir.path, "a.parquet");
    const b = join(dir.path, "b.parquet");
    const c = join(dir.path, "c.parquet");
    await engine.use(async (conn) => {
      await conn.run(
        `COPY (SELECT i AS id, 100 - i AS file_row_number FROM range(50) t(i)) TO '${a}' (FORMAT parquet, ROW_GROUP_SIZE 16)`,
      );
      await conn.run(
        `COPY (SELECT 50 + i AS id, i % 3 AS file_row_number, 'x' AS extra FROM range(30) t(i)) TO '${b}' (FORMAT parquet)`,
      );
      await conn.run(`COPY (SELECT 80 + i AS id, 'y' AS extra FROM range(20) t(i)) TO '${c}' (FORMAT parquet)`);
    });
    for (const paths of [[a, b, c], [c, a]]) {
      const shape = await viewShape(engine, paths);
      assertEquals(shape.uniform, false);
      const page = await viewPage(engine, paths, shape, NONE, 0, 1000);
      const ids = page.records.map((r) => JSON.parse(r).id);
      const expected = paths.flatMap((p) => p === a ? range(0, 50) : p === b ? range(50, 80) : range(80, 100));
      assertEquals(ids, expected);
      const sorted = await viewPage(
        engine,
        paths,
        shape,
        { ...NONE, sort: { column: "extra", descending: true } },
        0,
        1000,
      );
      const tied = sorted.records.map((r) => JSON.parse(r).id);
      assertEquals(tied.length, expected.length);
      assertEquals(new Set(tied).size, expected.length);
    }
    const all = await viewShape(engine, [a, b, c]);
    const facets = await viewFacets(engine, [a, b, c], all, NONE, ["extra", "file_row_number"], 3);
    assertEquals(facets, [
      {
        column: "extra",
        values: [{ value: "null", count: 50 }, { value: '"x"', count: 30 }, { value: '"y"', count: 20 }],
        truncated: false,
      },
      {
        column: "file_row_number",
        values: [{ value: "null", count: 20 }, { value: "0", count: 10 }, { value: "1", count: 10 }],
        truncated: true,
      },
    ]);
    const uniform = await viewShape(engine, [c, c]);
    assertEquals(uniform.uniform, true);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

Deno.test("view: a value not of its column's type is refused before any record is read, whatever else filters", async () => {
  type Filter = ViewSpec["filters"][number];
  const f = (column: string, op: Filter["op"], ...values: string[]): Filter => ({ column, op, values });
  const where = (...filters: Filter[]): ViewSpec => ({ filters, search: null, sort: null });
  await withCities(async (run) => {
    assertEquals((await run(where(f("id", "in", "3", " 4 ", "+5")))).ids, [3, 4, 5]);
    assertEquals((await run(where(f("score", "gt", "1.5"), f("id", "lt", "5")))).ids, [4]);
    const refusals: [Filter[], RegExp][] = [
      // DuckDB would have rounded it: id > 2, leaving out 2.
      [[f("id", "gt", "1.5")], /"1.5" is not a whole number \(id is BIGINT\)/],
      [[f("id", "eq", "abc")], /"abc" is not a number \(id is BIGINT\)/],
      // Nothing passes the first filter: the second is still refused, not skipped.
      [[f("name", "eq", "no such city"), f("score", "gte", "abc")], /"abc" is not a number \(score is DOUBLE\)/],
      [[f("id", "in", "1", "0x10")], /"0x10" is not a number/],
      [[f("id", "gt", "9".repeat(50))], /is out of BIGINT's range/],
    ];
    for (const [filters, message] of refusals) {
      const refused = await run(where(...filters)).then(() => null, (e) => e);
      assert(refused instanceof ViewError, `${JSON.stringify(filters)}: ${refused}`);
      assert(message.test(refused.message), refused.message);
    }
  });
});
