/**
 * What a view counts, kept (issue 47): a view's facets and total are counted
 * once per version and view, in one scan, and served from memory after;
 * a sort counts the same; another filter, or another version, counts again.
 *
 * @module
 */
import { openReadEngine, viewShape, type ViewSpec } from "../../src/parquet/mod.ts";
import { facetsOf, keepTotal, keptTotal } from "../../src/service/facets.ts";
import { openStore } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { counting } from "../support/counting_engine.ts";

Deno.test("a view's facets and total are counted once per version and view, and kept", async () => {
  const dir = await tempDir();
  await citiesStore(dir.path);
  const engine = counting(await openReadEngine(dir.path));
  try {
    const store = openStore(dir.path);
    const [v1, v2] = [(await store.version("cities", 1))!, (await store.version("cities", 2))!];
    const shape = await viewShape(engine, v2.parts.map((p) => p.path));
    const filtered: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["100"] }], search: null, sort: null };
    const uses = engine.uses;
    const first = await facetsOf({ engine }, v2, shape, filtered, ["note", "name"], 5);
    assertEquals([first.total, engine.uses - uses], [100, 1], "one scan counts the facets and the total");
    assertEquals(keptTotal(v2, filtered), 100);
    const again = await facetsOf({ engine }, v2, shape, { ...filtered, sort: { column: "id", descending: true } }, [
      "name",
      "note",
    ], 5);
    assertEquals(engine.uses - uses, 1, "kept: a sort counts the same");
    assertEquals(again.facets, [first.facets[1], first.facets[0]]);
    await facetsOf({ engine }, v2, shape, filtered, ["note", "id"], 5);
    assertEquals(engine.uses - uses, 2, "a column not counted yet is counted");
    const other: ViewSpec = { ...filtered, filters: [{ column: "id", op: "lt", values: ["101"] }] };
    assertEquals((await facetsOf({ engine }, v2, shape, other, ["note"], 5)).total, 101);
    assertEquals(keptTotal(v1, filtered), undefined, "another version's views are its own");
    keepTotal(v1, filtered, 7);
    assertEquals(keptTotal(v1, filtered), 7);
    const every: ViewSpec = { filters: [], search: null, sort: null };
    const before = engine.uses;
    const everyFacets = await facetsOf({ engine }, v2, shape, every, ["note"], 5);
    assertEquals(everyFacets.total, null, "a view of every record takes the parts' counts");
    await facetsOf({ engine }, v2, shape, every, ["note"], 5);
    assertEquals(engine.uses - before, 1);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});
