/**
 * Where a view's records are: looked for in the first parts, then in four
 * times as many after them, the places are those one query over every part
 * gives, for first, spanning, rare, empty, deep and sorted pages; a first
 * page the first parts hold reads no part after them; the records at places
 * are read from the parts holding them, and a page the cache lacks is the
 * page a plain query gives.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import { openReadEngine, type ReadEngine } from "../../src/parquet/mod.ts";
import { viewPage, viewShape, type ViewSpec } from "../../src/parquet/view.ts";
import { FIRST_LOOK, LOOK_DEPTH, recordsAtPlaces, viewPlaces } from "../../src/parquet/_view_places.ts";

const PARTS = 24;
const ROWS = 600;

/** 24 parts of 600 rows: `id` counts on across parts, `kind` is "rare" only in parts 13 and 21, "odd" on odd ids. */
async function withParts(fn: (engine: ReadEngine, paths: string[]) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const paths = Array.from({ length: PARTS }, (_, i) => join(dir.path, `p${i}.parquet`));
    await engine.use(async (c) => {
      for (const [i, path] of paths.entries()) {
        const rare = i === 13 || i === 21 ? `WHEN r % 97 = 5 THEN 'rare' ` : "";
        await c.run(
          `COPY (SELECT ${i * ROWS} + r AS id, CASE ${rare}WHEN r % 2 = 1 THEN 'odd' ELSE 'even' END AS kind, ` +
            `(r * 37) % 101 AS score FROM range(${ROWS}) t(r)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 200)`,
        );
      }
    });
    await fn(engine, paths);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
}

/** The places one query over every part gives. */
async function expected(
  engine: ReadEngine,
  paths: string[],
  where: string,
  order: string,
  offset: number,
  limit: number,
) {
  const list = paths.map((p) => `'${p}'`).join(", ");
  return await engine.use(async (c) =>
    (await c.runAndReadAll(
      `SELECT file_index, file_row_number FROM read_parquet([${list}]) ${where} ` +
        `ORDER BY ${order}file_index, file_row_number LIMIT ${limit} OFFSET ${offset}`,
    )).getRows().map((r) => ({ part: Number(r[0]), row: Number(r[1]) }))
  );
}

const kind = (value: string): ViewSpec => ({
  filters: [{ column: "kind", op: "eq", values: [value] }],
  search: null,
  sort: null,
});

Deno.test("view places: looked for part by part, the places are those of one query over every part", async () => {
  await withParts(async (engine, paths) => {
    const { columns } = await viewShape(engine, paths);
    const cases: [string, ViewSpec, string, string, number, number][] = [
      ["first page", kind("odd"), "WHERE kind = 'odd'", "", 0, 10],
      ["a page across looks", kind("odd"), "WHERE kind = 'odd'", "", FIRST_LOOK * ROWS / 2 - 3, 10],
      ["rare records, later parts", kind("rare"), "WHERE kind = 'rare'", "", 0, 10],
      ["past the rare records' end", kind("rare"), "WHERE kind = 'rare'", "", 10, 10],
      ["no record", kind("none"), "WHERE kind = 'none'", "", 0, 10],
      [
        "every record, a page in the last parts",
        { filters: [], search: null, sort: null },
        "",
        "",
        PARTS * ROWS - 15,
        10,
      ],
      ["deeper than a look goes", kind("even"), "WHERE kind = 'even'", "", LOOK_DEPTH - 5, 10],
      [
        "sorted",
        { ...kind("odd"), sort: { column: "score", descending: true } },
        "WHERE kind = 'odd'",
        "score DESC NULLS LAST, ",
        40,
        20,
      ],
    ];
    for (const [what, spec, where, order, offset, limit] of cases) {
      const places = await engine.use((c) => viewPlaces(c, paths, columns, spec, offset, limit));
      assertEquals(places, await expected(engine, paths, where, order, offset, limit), what);
    }
    assertEquals((await engine.use((c) => viewPlaces(c, paths, columns, kind("rare"), 0, 100))).length, 14);
  });
});

Deno.test("view places: a first page the first parts hold reads no part after them", async () => {
  await withParts(async (engine, paths) => {
    const { columns } = await viewShape(engine, paths);
    await Deno.writeTextFile(paths[FIRST_LOOK + 2], "not a parquet file");
    const places = await engine.use((c) => viewPlaces(c, paths, columns, kind("odd"), 0, 10));
    assertEquals(places.map((p) => p.part), Array(10).fill(0));
    const broken = await engine.use((c) => viewPlaces(c, paths, columns, kind("rare"), 0, 10)).then(
      () => null,
      (e) => e,
    );
    assertEquals(broken instanceof Error, true, "the rare records' look reads the broken part");
  });
});

Deno.test("view places: the records at places are read from the parts that hold them, in the places' order", async () => {
  await withParts(async (engine, paths) => {
    const { columns } = await viewShape(engine, paths);
    const places = [{ part: 21, row: 5 }, { part: 3, row: 599 }, { part: 3, row: 0 }, { part: 9, row: 250 }];
    const records = await engine.use((c) => recordsAtPlaces(c, paths, columns, places));
    assertEquals(records.map((r) => JSON.parse(r).id), places.map((p) => p.part * ROWS + p.row));
    assertEquals(JSON.parse(records[0]), { id: 21 * ROWS + 5, kind: "rare", score: (5 * 37) % 101 });
    assertEquals(await engine.use((c) => recordsAtPlaces(c, paths, columns, [])), []);
    await Deno.writeTextFile(paths[0], "not a parquet file");
    const later = await engine.use((c) =>
      recordsAtPlaces(c, paths, columns, [{ part: 2, row: 1 }, { part: 1, row: 7 }])
    );
    assertEquals(later.map((r) => JSON.parse(r).id), [2 * ROWS + 1, ROWS + 7]);
  });
});

Deno.test("view places: a page whose records the cache lacks is the page a plain query gives", async () => {
  await withParts(async (engine, paths) => {
    const shape = await viewShape(engine, paths);
    const views: [ViewSpec, number, number][] = [
      [kind("odd"), 0, 10],
      [kind("rare"), 3, 10],
      [{ ...kind("even"), sort: { column: "score", descending: false } }, 100, 25],
      [kind("none"), 0, 10],
    ];
    for (const [spec, offset, limit] of views) {
      const plain = await viewPage(engine, paths, shape, spec, offset, limit, 0);
      const missed = await viewPage(engine, paths, shape, spec, offset, limit, 0, () => Promise.resolve(null));
      assertEquals(missed.records, plain.records, JSON.stringify(spec));
    }
  });
});
