/**
 * Sorted pages from kept orders (issue 47): the order is computed once per
 * version, column and direction (concurrent first requests share it), kept
 * beside the version (not by a read-only node) and read back from there.
 *
 * @module
 */
import { openReadEngine, pageReader, type ReadEngine, viewShape } from "../../src/parquet/mod.ts";
import { nodeLog } from "../../src/service/mod.ts";
import { keptOrder, sortedRecords } from "../../src/service/sorted.ts";
import { memoryPlan } from "../../src/settings/mod.ts";
import { openStore, orderFile } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

/** An engine that counts the sessions asked for (a sort runs on one). */
function counting(engine: ReadEngine): ReadEngine & { sessions: number } {
  const counted = {
    sessions: 0,
    scratch: engine.scratch,
    use: engine.use,
    session() {
      counted.sessions++;
      return engine.session();
    },
    returnFreeMemory: () => engine.returnFreeMemory(),
    close: () => engine.close(),
  };
  return counted;
}

for (const readOnly of [false, true]) {
  Deno.test(`a version's order is computed once, ${readOnly ? "kept in memory only" : "kept beside it"}`, async () => {
    const dir = await tempDir();
    const w = new StoreWriter(dir.path);
    try {
      await w.version("scores", 1, {
        parts: [{
          sql: `SELECT i::BIGINT AS id, (i * 7919 % 1000) + ${readOnly ? 0.5 : 0} AS score FROM range(3000) r(i)`,
        }],
      });
      w.close();
      const engine = counting(await openReadEngine(dir.path));
      try {
        const store = openStore(dir.path);
        const version = (await store.version("scores", 1))!;
        const state = {
          store,
          engine,
          pages: pageReader(engine),
          readOnly,
          log: nodeLog(null, () => {}),
          memory: memoryPlan(512 * 1024 ** 2, "flag"),
        };
        const shape = await viewShape(engine, version.parts.map((p) => p.path));
        const sort = { column: "score", descending: true };
        const [a, b] = await Promise.all([
          keptOrder(state, version, shape, sort),
          keptOrder(state, version, shape, sort),
        ]);
        assertEquals([a === b, engine.sessions], [true, 1], "one computation for both");
        const records = await sortedRecords(state, version, shape, sort, 0, 3);
        assertEquals(records.map((r) => JSON.parse(r).score), readOnly ? [999.5, 999.5, 999.5] : [999, 999, 999]);
        assertEquals(engine.sessions, 1, "kept in memory");
        const files = [];
        for await (const entry of Deno.readDir(`${dir.path}/scores/v1`)) files.push(entry.name);
        assertEquals(files.some((n) => n.startsWith("order-")), !readOnly);
        if (!readOnly) {
          const tag = files.find((n) => n.startsWith("order-"))!;
          assertEquals(orderFile(dir.path, "scores", 1, "x").endsWith(".bin"), true);
          assertEquals(tag.endsWith(".bin"), true);
        }
      } finally {
        await engine.close();
      }
    } finally {
      w.close();
      await dir.cleanup();
    }
  });
}
