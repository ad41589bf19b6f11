import { assert, assertEquals, type Json } from "../support/assert.ts";
import { cachedGroup, openReadEngine, pageCache, pageReader } from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { withTypedNode, withTypedStore } from "./_typed_store.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

/** Page ranges of `many` (1,000 rows: parts of 100, 500, 1 and 399, row groups of 7, 64, 1 and the default). */
const RANGES = [[0, 7], [5, 10], [99, 3], [100, 250], [599, 3], [600, 1], [601, 5], [640, 1000], [999, 5], [1000, 5]];

Deno.test("cached pages are the records read from the parts: every range, across groups and parts, text and records", async () => {
  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const store = openStore(root);
      const plain = pageReader(engine);
      const cache = pageCache(64 * 1024 * 1024);
      const cached = pageReader(engine, { cache });
      for (const slug of ["many", "typed", "extra", "rownum"]) {
        const version = (await store.version(slug, 1))!;
        const ranges = slug === "many" ? RANGES : [[0, 1000], [1, 2], [120, 3]];
        // Twice read from the parts: each group is missed twice, then decoded into the cache behind the answer.
        for (let round = 0; round < 2; round++) {
          for (const [offset, limit] of ranges) await cached.page(version, offset, limit);
        }
        await cached.settle();
        const before = cache.stats().hits;
        for (const [offset, limit] of ranges) {
          const want = await plain.page(version, offset, limit);
          assertEquals(await cached.page(version, offset, limit), want, `${slug} ${offset}+${limit} records`);
          const bytes = await cached.pageBytes(version, offset, limit);
          assertEquals(
            [new TextDecoder().decode(bytes.bytes), bytes.count],
            [want.join(","), want.length],
            `${slug} ${offset}+${limit} bytes`,
          );
        }
        assert(cache.stats().hits - before >= ranges.length, `${slug}: the pages came from memory`);
      }
      const stats = cached.cacheStats()!;
      assert(stats.groups > 0 && stats.bytes > 0 && stats.bytes <= stats.maxBytes, JSON.stringify(stats));
      assertEquals(plain.cacheStats(), null);
    } finally {
      await engine.close();
    }
  });
});

Deno.test("the page cache keeps the most recently used groups within its size; a group read once is not kept", async () => {
  const group = (n: number) => cachedGroup(Array.from({ length: 100 }, (_, i) => `{"id":${1000 + n * 100 + i}}`));
  const measure = pageCache(1024 * 1024);
  measure.set("c".repeat(64), 0, group(0));
  const size = measure.stats().bytes; // every group here holds the same bytes
  const cache = pageCache(size * 3);
  for (let g = 0; g < 3; g++) cache.set("a".repeat(64), g * 100, group(g));
  assertEquals(cache.stats().groups, 3);
  cache.get("a".repeat(64), 0); // group 0 is now the most recent
  cache.set("a".repeat(64), 300, group(3));
  assertEquals(cache.get("a".repeat(64), 100), undefined, "the least recently used group went");
  assert(cache.get("a".repeat(64), 0) && cache.get("a".repeat(64), 200) && cache.get("a".repeat(64), 300));
  assert(cache.stats().bytes <= size * 3);
  cache.set("b".repeat(64), 0, cachedGroup(["x".repeat(size * 4)]));
  assertEquals(cache.get("b".repeat(64), 0), undefined, "a group larger than the cache is not kept");

  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const cache = pageCache(64 * 1024 * 1024);
      const pages = pageReader(engine, { cache });
      const version = (await openStore(root).version("many", 1))!;
      await pages.page(version, 100, 50);
      await pages.settle();
      assertEquals(cache.stats().groups, 0, "read once: nothing decoded");
      await pages.page(version, 100, 50);
      await pages.settle();
      assert(cache.stats().groups > 0, "read twice: its groups are kept");
      assertEquals([cache.stats().hits, cache.stats().misses], [0, 2]);
      await pages.page(version, 100, 50);
      assertEquals(cache.stats().hits, 1);
    } finally {
      await engine.close();
    }
  });
});

Deno.test("data pages over HTTP are the same with the page cache on and off", async () => {
  const cacheOf = async (url: string) => ((await (await fetch(`${url}/healthz`)).json()) as Json).pageCache;
  const fetchAll = async (url: string) => {
    const out: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [offset, limit] of RANGES) {
        out.push(await (await fetch(`${url}/projects/many/data?offset=${offset}&limit=${limit}`)).text());
      }
      out.push(await (await fetch(`${url}/projects/typed/data`)).text());
      // After the second round every group was missed twice: wait until they are decoded.
      for (let waited = 0; round === 1 && waited < 200; waited++) {
        const cache = await cacheOf(url);
        if (cache === null || cache.groups >= 5) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return out;
  };
  let off: string[] = [];
  await withTypedNode(async (url) => void (off = await fetchAll(url)), 0);
  await withTypedNode(async (url) => {
    const on = await fetchAll(url);
    assertEquals(on, off);
    const cache = await cacheOf(url);
    assert(cache.hits >= RANGES.length, `the cache served the last round: ${JSON.stringify(cache)}`);
  });
});

Deno.test("a row group over 10,240 rows is decoded and kept in blocks; pages across blocks are the parts' records", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("big", 1, {
      parts: [{ sql: "SELECT range::BIGINT AS id, 'r' || range AS name FROM range(25000)", rowGroupSize: 30_000 }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("big", 1))!;
      const cache = pageCache(64 * 1024 * 1024);
      const cached = pageReader(engine, { cache });
      const ranges = [[0, 200], [10_200, 100], [20_470, 20], [24_900, 200]];
      for (let round = 0; round < 2; round++) for (const [o, l] of ranges) await cached.page(version, o, l);
      await cached.settle();
      assertEquals(cache.stats().groups, 3, "blocks of 10,240, 10,240 and 4,520 rows");
      const plain = pageReader(engine);
      const before = cache.stats().hits;
      for (const [o, l] of ranges) {
        assertEquals(await cached.page(version, o, l), await plain.page(version, o, l), `${o}+${l}`);
      }
      assertEquals(cache.stats().hits - before, ranges.length, "every page came from memory");
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
