import { assertEquals, assertRejects } from "../support/assert.ts";
import { DuckDBInstance } from "@duckdb/node-api";
import { readAll, runOne, streamOf } from "../../src/parquet/_statement.ts";

async function withConnection(fn: (c: Awaited<ReturnType<DuckDBInstance["connect"]>>) => Promise<void>) {
  const db = await DuckDBInstance.create(":memory:", { threads: "1" });
  const c = await db.connect();
  try {
    await fn(c);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

Deno.test("one statement runs with its parameters bound, or with none", async () => {
  await withConnection(async (c) => {
    assertEquals((await readAll(c, "SELECT $1::BIGINT + 1 AS n, $2 AS s", [41n, "x"])).getRowObjectsJson(), [
      { n: "42", s: "x" },
    ]);
    assertEquals((await readAll(c, "SELECT 7 AS n")).getRows(), [[7]]);
    await runOne(c, "CREATE TABLE t AS SELECT range AS i FROM range(5) WHERE range >= $1", [2]);
    assertEquals((await readAll(c, "SELECT count(*)::INTEGER FROM t")).getRows(), [[3]]);
  });
});

Deno.test("a streamed result reads every row after its statement is let go", async () => {
  await withConnection(async (c) => {
    const result = await streamOf(c, "SELECT range AS i FROM range($1)", [5000]);
    let rows = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      rows += chunk.rowCount;
    }
    assertEquals(rows, 5000);
  });
});

Deno.test("a text of two statements is refused, and nothing of it runs", async () => {
  await withConnection(async (c) => {
    await runOne(c, "CREATE TABLE u (i INTEGER)");
    await assertRejects(() => readAll(c, "INSERT INTO u VALUES ($1); SELECT 1", [1]));
    assertEquals((await readAll(c, "SELECT count(*)::INTEGER FROM u")).getRows(), [[0]]);
  });
});
