/**
 * Kept columns (issue 47): a version's column is kept as codes once it was
 * asked for twice, read in the background with the parts leased; views
 * counted each time are then counted over the kept columns, with DuckDB's
 * answers and without reading the parts; the columns keep to their bytes;
 * a column of a type not kept, or larger than all may hold, is never kept.
 *
 * @module
 */
import { rm } from "node:fs/promises";
import {
  openReadEngine,
  type ReadEngine,
  viewFacetsAndTotal,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";
import { facetsOf } from "../../src/service/facets.ts";
import { keptColumns } from "../../src/service/kept_columns.ts";
import { openStore, type StoredVersion } from "../../src/store/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { countingLeases } from "./_leases.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { typedPartSql } from "../parquet/_typed_store.ts";

/** A store of `typed` v1 (5 parts of the typed columns) and v2 (v1 and 2 more), and the read engine over it. */
async function withStore(
  fn: (versions: { v1: StoredVersion; v2: StoredVersion }, engine: ReadEngine) => Promise<void>,
) {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("typed", 1, { parts: Array.from({ length: 5 }, (_, k) => ({ sql: typedPartSql(k) })) });
    await w.extend("typed", 1, 2, Array.from({ length: 2 }, (_, k) => ({ sql: typedPartSql(5 + k) })));
    w.close();
    const store = openStore(dir.path);
    const engine = await openReadEngine(dir.path);
    try {
      await fn({ v1: (await store.version("typed", 1))!, v2: (await store.version("typed", 2))! }, engine);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
}

const byId = (k: number): ViewSpec => ({
  filters: [{ column: "id", op: "gte", values: [String(k)] }],
  search: null,
  sort: null,
});

Deno.test("a column asked for twice is kept; views are then counted over it as DuckDB counts them, the parts unread", async () => {
  await withStore(async ({ v1 }, engine) => {
    const paths = v1.parts.map((p) => p.path);
    const shape = await viewShape(engine, paths);
    const leases = countingLeases();
    const columns = keptColumns(engine, leases, 64 * 1024 ** 2);
    assertEquals(columns.columnsFor(v1, shape, ["country", "id"]), null, "asked once");
    await columns.settled();
    assertEquals(columns.kept().columns, 0);
    assertEquals(columns.columnsFor(v1, shape, ["country", "ID"]), null, "asked twice: read in the background");
    await columns.settled();
    assertEquals(leases.held, { now: 0, ever: 2 }, "the parts leased while each column is read, and let go");
    const kept = columns.columnsFor(v1, shape, ["id", "country", "country"]);
    assert(kept !== null);
    assertEquals([...kept.keys()].sort(), ["country", "id"]);
    assertEquals(columns.kept().columns, 2);
    assert(columns.kept().bytes > 200 * 2, JSON.stringify(columns.kept()));
    const state = { engine, keptColumns: columns };
    const views = [byId(17), byId(1), {
      ...byId(0),
      filters: [{ column: "country", op: "in" as const, values: ["c-3", "c-5"] }],
    }];
    for (const view of views) {
      assertEquals(
        await facetsOf(state, v1, shape, view, ["country"], 3),
        await viewFacetsAndTotal(engine, paths, shape, view, ["country"], 3),
        JSON.stringify(view),
      );
    }
    // The parts gone, views not counted before are still counted: over the kept columns.
    for (const path of paths) await rm(path);
    assertEquals(await facetsOf(state, v1, shape, byId(150), ["country"], 2), {
      facets: [{
        column: "country",
        values: [{ value: '"c-3"', count: 8 }, { value: '"c-0"', count: 7 }],
        truncated: true,
      }],
      total: 50,
    });
    assertEquals(await facetsOf(state, v1, shape, byId(199), [], 2), { facets: [], total: 1 }, "a total alone");
  });
});

Deno.test("kept columns keep to their bytes, belong to one version, and are never kept past their type or size", async () => {
  await withStore(async ({ v1, v2 }, engine) => {
    const shape1 = await viewShape(engine, v1.parts.map((p) => p.path));
    const shape2 = await viewShape(engine, v2.parts.map((p) => p.path));
    const probe = keptColumns(engine, countingLeases(), 64 * 1024 ** 2);
    const twice = async (columns: ReturnType<typeof keptColumns>, version: StoredVersion, names: string[]) => {
      columns.columnsFor(version, version === v1 ? shape1 : shape2, names);
      columns.columnsFor(version, version === v1 ? shape1 : shape2, names);
      await columns.settled();
    };
    await twice(probe, v1, ["country"]);
    const one = probe.kept().bytes;
    assert(one > 0);
    assertEquals(probe.columnsFor(v2, shape2, ["country"]), null, "another version's column is its own");

    const small = keptColumns(engine, countingLeases(), Math.floor(one * 1.5) + 100);
    await twice(small, v1, ["country"]);
    await twice(small, v2, ["country"]);
    assertEquals(small.kept().columns, 1, "the least recently used went for room");
    assert(small.columnsFor(v2, shape2, ["country"]) !== null);
    assertEquals(small.columnsFor(v1, shape1, ["country"]), null);

    const tiny = keptColumns(engine, countingLeases(), 16);
    await twice(tiny, v1, ["country"]);
    assertEquals(tiny.kept(), { columns: 0, bytes: 0 }, "larger than all may hold: never kept");
    const leases = countingLeases();
    const types = keptColumns(engine, leases, 64 * 1024 ** 2);
    for (const name of ["ratio", "price", "at", "tags", "huge", "nope"]) {
      await twice(types, v1, [name, "country"]);
      assertEquals(types.columnsFor(v1, shape1, [name, "country"]), null, name);
    }
    assertEquals([types.kept().columns, leases.held.ever], [0, 0], "nothing read for a view that cannot be counted");
    await twice(types, v1, ["flag", "day", "small", "note"]);
    assertEquals(types.kept().columns, 4, "booleans, dates, small whole numbers and text are kept");
  });
});
