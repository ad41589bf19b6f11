/**
 * A view's page and the page cache (issue 47): a page whose blocks the
 * cache lacks is read from the parts, and those blocks are decoded into the
 * cache behind it, so that the view asked again is cut from the cache; a
 * page of records all over the version decodes nothing.
 *
 * @module
 */
import { cachedRecords, openReadEngine, pageCache, pageReader, viewPage, viewShape } from "../../src/parquet/mod.ts";
import type { CachedRecords, ViewSpec } from "../../src/parquet/mod.ts";
import { VIEW_PAGE_DECODES } from "../../src/parquet/_records_at.ts";
import { BLOCK_ROWS } from "../../src/parquet/_reader_state.ts";
import { openStore } from "../../src/store/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const RECORDS = BLOCK_ROWS * 8;

Deno.test("a view's page the cache lacks is read from the parts, and its blocks decoded behind it for the next ask", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("big", 1, {
      parts: [{ sql: `SELECT i::BIGINT AS id, 'k' || (i % 13) AS kind FROM range(${RECORDS}) r(i)` }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("big", 1))!;
      const paths = version.parts.map((p) => p.path);
      const shape = await viewShape(engine, paths);
      const cache = pageCache(256 * 1024 * 1024);
      const reader = pageReader(engine, { cache });
      const answers: (string[] | null)[] = [];
      const from = cachedRecords(reader, version);
      const spy: CachedRecords = async (places) => {
        const got = await from(places);
        answers.push(got);
        return got;
      };
      const ask = (spec: ViewSpec) => viewPage(engine, paths, shape, spec, 0, 10, undefined, spy);
      // One record in each of more blocks than a view's page decodes.
      const spread: ViewSpec = {
        filters: [{
          column: "id",
          op: "in",
          values: Array.from({ length: VIEW_PAGE_DECODES + 2 }, (_, k) => String(k * BLOCK_ROWS + 7)),
        }],
        search: null,
        sort: null,
      };
      const spreadPage = await ask(spread);
      await reader.settle();
      assertEquals(spreadPage.total, VIEW_PAGE_DECODES + 2);
      assertEquals([answers.pop(), cache.stats().groups], [null, 0], "records all over the version: nothing decoded");
      const first: ViewSpec = { filters: [{ column: "kind", op: "eq", values: ["k5"] }], search: null, sort: null };
      const cold = await ask(first);
      assertEquals(answers.pop(), null, "missed: read from the parts");
      await reader.settle();
      assert(cache.stats().groups > 0, "its blocks decoded behind it");
      const again = await ask(first);
      assertEquals(answers.pop(), again.records, "asked again: cut from the cache");
      assertEquals(again, cold);
      assertEquals(again.records[0], `{"id":5,"kind":"k5"}`);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
