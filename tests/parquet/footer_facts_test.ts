/**
 * What the parts' footers say of a version's columns (issue 47): the columns
 * with no null and the bounds of whole-number and date columns, over every
 * part and row group, or nothing for a column any of them is silent on.
 *
 * @module
 */
import { openReadEngine, viewShape } from "../../src/parquet/mod.ts";
import { ordinalOf } from "../../src/parquet/_footer_facts.ts";
import { openStore } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

Deno.test("ordinals: whole numbers as themselves, days since 1970, nothing else", () => {
  assertEquals(ordinalOf("-9223372036854775808", "BIGINT"), -(2n ** 63n));
  assertEquals(ordinalOf("007", "INTEGER"), 7n);
  assertEquals(ordinalOf("1970-01-01", "DATE"), 0n);
  assertEquals(ordinalOf("1969-12-31", "DATE"), -1n);
  assertEquals(ordinalOf("2024-02-29", "DATE"), 19782n);
  for (
    const [text, type] of [
      ["2023-02-29", "DATE"], // no such day
      ["0050-01-01", "DATE"], // Date.UTC's 1950
      ["2024-1-5", "DATE"],
      [" 5", "BIGINT"],
      ["+5", "BIGINT"],
      ["1.5", "BIGINT"],
      ["5", "DOUBLE"],
      ["5", "UBIGINT"],
      ["5", "HUGEINT"],
      ["2024-01-01", "TIMESTAMP"],
    ]
  ) assertEquals(ordinalOf(text, type), null, `${type} ${text}`);
});

Deno.test("a version's bounds span every part and row group, and a column any footer is silent on has none", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const rows = (from: number, n: string) =>
      `SELECT (${from} + i)::BIGINT AS id, DATE '2024-01-01' + (${from} + i)::INTEGER AS day, ` +
      `${n} AS n, (${from} + i)::DOUBLE AS f, 'x' || i AS s FROM range(30) r(i)`;
    await w.version("bounds", 1, {
      parts: [
        { sql: rows(10, "i::INTEGER"), rowGroupSize: 10 },
        { sql: rows(-5, "CASE WHEN i = 29 THEN NULL ELSE i END"), rowGroupSize: 7 },
      ],
    });
    await w.version("bounds", 2, {
      parts: [
        { sql: rows(0, "i::INTEGER") },
        // No day here: its records read it as null.
        { sql: `SELECT 100::BIGINT AS id, 1 AS n, 1.5::DOUBLE AS f, 'y' AS s` },
      ],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const store = openStore(dir.path);
      const shape = async (version: number) => {
        const v = (await store.version("bounds", version))!;
        return await viewShape(engine, v.parts.map((p) => p.path), { nullCounts: true });
      };
      const first = await shape(1);
      assertEquals(first.nonNull, ["id", "day", "f", "s"]);
      assertEquals(first.bounds?.get("id"), { min: -5n, max: 39n });
      assertEquals(first.bounds?.get("day"), {
        min: ordinalOf("2023-12-27", "DATE")!,
        max: ordinalOf("2024-02-09", "DATE")!,
      });
      assertEquals([...first.bounds!.keys()].sort(), ["day", "id", "n"], "doubles and strings are not bounded here");
      assertEquals(first.bounds?.get("n"), { min: 0n, max: 29n }, "bounds of a column with nulls (never used alone)");
      const second = await shape(2);
      assertEquals(second.bounds?.get("id"), { min: 0n, max: 100n });
      assertEquals(second.bounds?.has("day"), false, "a part without the column");
      assertEquals(second.nonNull.includes("day"), false);
      assertEquals((await viewShape(engine, [])).bounds, undefined);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
