/**
 * A read copy (issue 47): one Parquet file holding the records of many
 * parts, in order, of the same columns and types; written whole or not at
 * all, and refused when it does not read back as the parts.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { openReadEngine, ReadCopyError, sqlString, viewShape, writeReadCopy } from "../../src/parquet/mod.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";
import { typedPartSql } from "./_typed_store.ts";

/** Runs `fn` with the paths of 20 typed parts and an engine reading them. */
async function withParts(
  fn: (paths: string[], engine: Awaited<ReturnType<typeof openReadEngine>>) => Promise<void>,
): Promise<void> {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    const { partPaths } = await w.version("typed", 1, {
      parts: Array.from({ length: 20 }, (_, k) => ({ sql: typedPartSql(k) })),
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      await fn(partPaths, engine);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
}

Deno.test("a read copy holds the parts' records in order, of the same columns and types", async () => {
  await withParts(async (paths, engine) => {
    const shape = await viewShape(engine, paths);
    const target = join(engine.scratch, "copy-a.parquet");
    const bytes = await writeReadCopy(engine, paths, shape.columns, target);
    assert(bytes > 0);
    assertEquals((await viewShape(engine, [target])).columns, shape.columns, "the same columns, of the same types");
    const [rows, differ] = await engine.use(async (c) => {
      const count = (await c.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet(${sqlString(target)})`))
        .getRows()[0][0];
      // Row by row, in order: each record's place in the parts against its place in the copy.
      const numbered = (from: string, order: string) =>
        `SELECT row_number() OVER (ORDER BY ${order}) AS n, * EXCLUDE (file_row_number) FROM ${from}`;
      const a = numbered(
        `read_parquet([${paths.map(sqlString).join(", ")}], file_row_number = true)`,
        "file_index, file_row_number",
      );
      const b = numbered(`read_parquet(${sqlString(target)}, file_row_number = true)`, "file_index, file_row_number");
      const differ = (await c.runAndReadAll(
        `SELECT count(*)::INTEGER FROM ((${a} EXCEPT ALL ${b}) UNION ALL (${b} EXCEPT ALL ${a}))`,
      )).getRows()[0][0];
      return [count, differ];
    });
    assertEquals([rows, differ], [800, 0], "every record, the same, in the same order");
    assertEquals(await readdir(engine.scratch), ["copy-a.parquet"], "nothing left beside it");
  });
});

Deno.test("a read copy that does not read back as the parts is refused and leaves no file", async () => {
  await withParts(async (paths, engine) => {
    const shape = await viewShape(engine, paths);
    const target = join(engine.scratch, "copy-b.parquet");
    const other = shape.columns.map((c) => c.name === "price" ? { ...c, type: "DOUBLE" } : c);
    const refused = await assertRejects(() => writeReadCopy(engine, paths, other, target), /the copy's columns/);
    assert(refused instanceof ReadCopyError, String(refused));
    assertEquals(await readdir(engine.scratch), [], "neither the copy nor what was being written");
    await assertRejects(() =>
      writeReadCopy(engine, [...paths, join(engine.scratch, "gone.parquet")], shape.columns, target)
    );
    assertEquals(await readdir(engine.scratch), [], "a part missing: nothing written");
  });
});
