/**
 * Kept sort orders (issue 47): a version's order by a column is the order a
 * sorted view shows (nulls last, ties in the version's order, both
 * directions, across parts), and a page cut at its positions is the sorted
 * view's page, from a cache plain or compressed, or from the parts.
 *
 * @module
 */
import {
  openReadEngine,
  orderable,
  pageCache,
  pageReader,
  sortOrder,
  viewPage,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const rows = (from: number, n: number) =>
  `SELECT (${from} + i)::BIGINT AS id, CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 37) % 11 END::INTEGER AS k, ` +
  `CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' || (i % 4) END AS s, (i % 7) * 0.5 AS d, [i] AS l FROM range(${n}) r(i)`;

Deno.test("a kept order is the sorted view's order, and pages cut at its positions are the sorted view's pages", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("sorted", 1, {
      parts: [{ sql: rows(0, 700), rowGroupSize: 64 }, { sql: rows(700, 1) }, { sql: rows(701, 299) }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("sorted", 1))!;
      const paths = version.parts.map((p) => p.path);
      const shape = await viewShape(engine, paths);
      const counts = await pageReader(engine).partRecords(version);
      const readers = [
        pageReader(engine),
        pageReader(engine, { cache: pageCache(64 * 1024 * 1024) }),
        pageReader(engine, { cache: pageCache(16 * 1024, { compressed: true }) }),
      ];
      for (const column of ["k", "s", "d", "id"]) {
        for (const descending of [false, true]) {
          const sort = { column, descending };
          assert(orderable(shape, sort, 1000));
          const order = await sortOrder(engine, paths, counts, shape, sort);
          assertEquals(order.length, 1000);
          const spec: ViewSpec = { filters: [], search: null, sort };
          for (const [offset, limit] of [[0, 50], [680, 40], [990, 20]]) {
            const want = (await viewPage(engine, paths, shape, spec, offset, limit)).records;
            for (const reader of readers) {
              const got = await reader.recordsAt(version, order.subarray(offset, offset + limit));
              assertEquals(got, want, `${column} ${descending ? "desc" : "asc"} ${offset}+${limit}`);
            }
          }
        }
      }
      assertEquals(orderable(shape, { column: "l", descending: false }, 1000), false, "a list does not compare");
      assertEquals(orderable(shape, { column: "nope", descending: false }, 1000), false);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
