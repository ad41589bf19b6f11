/**
 * A view whose every filter leaves no record out, as the footers show, is
 * answered as the view of every record (issue 47): from what is kept and
 * cached, asking DuckDB nothing more; a filter that leaves one out counts.
 *
 * @module
 */
import { openReadEngine, pageCache, pageReader, type ViewSpec } from "../../src/parquet/mod.ts";
import { nodeLog, readView } from "../../src/service/mod.ts";
import { memoryPlan } from "../../src/settings/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { counting } from "../support/counting_engine.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

Deno.test("a view of idle filters asks DuckDB nothing the view of every record has not", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("idle", 1, {
      parts: [{ sql: `SELECT i::BIGINT AS id, 'k' || (i % 5) AS k FROM range(500) r(i)`, rowGroupSize: 100 }],
    });
    w.close();
    const engine = counting(await openReadEngine(dir.path));
    try {
      const state = {
        store: openStore(dir.path),
        engine,
        pages: pageReader(engine, { cache: pageCache(16 * 1024 * 1024) }),
        readOnly: true,
        log: nodeLog(null, () => {}),
        memory: memoryPlan(512 * 1024 ** 2, "flag"),
      };
      const ask = (filters: ViewSpec["filters"]) =>
        readView(state, "idle", {
          version: null,
          limit: 3,
          offset: 10,
          view: { filters, search: null, sort: null },
          facets: ["k"],
        });
      await ask([]); // its page read from the part, its block admitted to the cache on its second read
      await ask([]);
      let uses = engine.uses;
      const every = await ask([]);
      assertEquals(engine.uses - uses, 0, "the view of every record, from what is kept and cached");
      uses = engine.uses;
      const idle = await ask([
        { column: "id", op: "gte", values: ["0"] },
        { column: "id", op: "lt", values: ["500"] },
        { column: "k", op: "notnull", values: [] },
      ]);
      assertEquals([idle, engine.uses - uses], [every, 0]);
      const busy = JSON.parse(await ask([{ column: "id", op: "gte", values: ["1"] }]));
      assertEquals([busy.total, busy.records[0].id], [499, 11]);
      assertEquals(engine.uses > uses, true, "a filter that leaves a record out is counted");
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
