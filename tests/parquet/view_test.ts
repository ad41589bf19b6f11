/**
 * Views of a version (work in progress for issue 29): filters, search and
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
import { viewColumns, ViewError, viewPage, type ViewSpec } from "../../src/parquet/view.ts";

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
    const columns = await viewColumns(engine, paths);
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
