import { assert, assertEquals, assertThrows, type Json } from "../support/assert.ts";
import {
  cachedGroup,
  type CachedRecords,
  cachedRecords,
  openReadEngine,
  pageCache,
  pageReader,
  viewPage,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";
import { openStore } from "../../src/store/mod.ts";
import { withTypedNode, withTypedStore } from "./_typed_store.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const DESC = { column: "id", descending: true };

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
        // Read from the parts: each group missed, the cache having room, is decoded into it behind the answer.
        for (const [offset, limit] of ranges) await cached.page(version, offset, limit);
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
          for (const reader of [cached, plain]) {
            const framed = await reader.pageBytes(version, offset, limit, (n) => ({ head: `[${n}|`, tail: "|]" }));
            assertEquals(
              new TextDecoder().decode(framed.bytes),
              `[${want.length}|${want.join(",")}|]`,
              `${slug} ${offset}+${limit} framed`,
            );
          }
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

Deno.test("the page cache keeps the most recently used groups within its size", () => {
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
});

Deno.test("a block goes into the cache on its first miss while there is room, on its second once there is none", async () => {
  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const version = (await openStore(root).version("many", 1))!;
      // Rows 100-149 of `many` are in its second part (one block of 500 rows), 700-719 in its fourth (399 rows).
      const roomy = pageCache(64 * 1024 * 1024);
      const pages = pageReader(engine, { cache: roomy });
      const want = await pageReader(engine).page(version, 100, 50);
      assertEquals(await pages.page(version, 100, 50), want);
      await pages.settle();
      assertEquals(roomy.stats().groups, 1, "missed once, with room: its block is kept");
      assertEquals(await pages.page(version, 100, 50), want);
      assertEquals([roomy.stats().hits, roomy.stats().misses], [1, 1]);

      // Room for one block of the second part's size and not two; room for the fourth's.
      const full = pageCache(Math.floor(roomy.stats().bytes * 1.5));
      const tight = pageReader(engine, { cache: full });
      await tight.page(version, 100, 50);
      await tight.settle();
      assertEquals(full.stats().groups, 1, "the first block had room");
      await tight.page(version, 700, 20);
      await tight.settle();
      assertEquals(full.stats().groups, 1);
      assert(
        full.get(version.parts[1].sha256, 0),
        "missed once without room: the block held stays, nothing is decoded",
      );
      await tight.page(version, 700, 20);
      await tight.settle();
      const before = full.stats().hits;
      assertEquals(await tight.page(version, 700, 20), await pageReader(engine).page(version, 700, 20));
      assertEquals(full.stats().hits, before + 1, "missed twice: its block is kept");
      assertEquals(full.get(version.parts[1].sha256, 0), undefined, "in place of the least recently used");
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
      for (
        const view of ["id__gte=95&limit=10", "id__gte=95&offset=500&limit=20", "id__lt=700&sort_desc=id&offset=3"]
      ) {
        const res = await fetch(`${url}/projects/many/data?${view}`);
        assertEquals(res.status, 200, view);
        out.push(await res.text());
      }
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

Deno.test("pages missing the same block share one decode of it; a block larger than the cache is decoded whole once", async () => {
  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const version = (await openStore(root).version("many", 1))!;
      const calls = { decodes: 0, reads: 0 };
      const counted = {
        ...engine,
        use: <T>(fn: Parameters<typeof engine.use<T>>[0], options?: { first?: boolean }) => {
          if (options?.first) calls.decodes++;
          else calls.reads++;
          return engine.use(fn, options);
        },
      };
      const cache = pageCache(64 * 1024 * 1024);
      const pages = pageReader(counted, { cache });
      await pages.partRecords(version);
      calls.reads = 0;
      const want = await pageReader(engine).page(version, 100, 500);
      const got = await Promise.all([0, 1, 2, 3, 4].map((i) => pages.page(version, 100 + i * 100, 100)));
      assertEquals(got.flat(), want);
      assertEquals(calls, { decodes: 1, reads: 1 }, "five pages of one block: one decode, the first reading its own");
      assertEquals([cache.stats().hits, cache.stats().misses], [0, 5]);

      const tiny = pageCache(1000);
      const small = pageReader(counted, { cache: tiny });
      await small.partRecords(version);
      Object.assign(calls, { decodes: 0, reads: 0 });
      for (let i = 0; i < 3; i++) {
        assertEquals(await small.page(version, 100, 50), want.slice(0, 50));
        await small.settle();
      }
      assertEquals(calls, { decodes: 1, reads: 3 }, "too large to keep: decoded whole once, and every page read");
      assertEquals(tiny.stats().groups, 0);
    } finally {
      await engine.close();
    }
  });
});

Deno.test("a compressing cache keeps blocks plain while they fit, then compresses the least recently used, then drops", () => {
  const records = (from: number) =>
    Array.from(
      { length: 2000 },
      (_, i) => JSON.stringify({ id: from + i, name: `city-${from + i}`, note: "n".repeat(20) }),
    );
  const block = (from: number) => cachedGroup(records(from));
  const plainSize = block(0).size;
  const cache = pageCache(Math.floor(plainSize * 2.5), { compressed: true });
  const sha = "ab".repeat(32);
  assert(cache.set(sha, 0, block(0)) && cache.set(sha, 2000, block(2000)));
  assertEquals([0, 2000].map((start) => cache.get(sha, start)!.compressed), [false, false], "both fit plain");
  assert(cache.set(sha, 4000, block(4000)));
  assertEquals([0, 2000, 4000].map((start) => cache.get(sha, start)?.compressed), [true, false, false]);
  assertEquals(cache.get(sha, 0)!.records(1999, 2000), records(0).slice(1999), "the compressed block holds the same");
  // Block 0 was the least recently used plain one when 4,000 came; read since, 2,000 is now the least recently used.
  for (let from = 6000; from < 200_000; from += 2000) assert(cache.set(sha, from, block(from)));
  const { bytes, maxBytes, groups } = cache.stats();
  assert(bytes <= maxBytes, `${bytes} <= ${maxBytes}`);
  assert(groups > 3, `more blocks than fit plain: ${groups}`);
  assertEquals(cache.get(sha, 2000), undefined, "the least recently used are dropped once every other is compressed");
  const tooLarge = pageCache(Math.floor(plainSize / 2), { compressed: true });
  assert(tooLarge.set(sha, 0, block(0)), "a block larger than the cache goes in compressed");
  assertEquals(pageCache(Math.floor(plainSize / 2)).set(sha, 0, block(0)), false, "a plain cache cannot keep it");
});

Deno.test("a block missed while the cache has room is decoded with the rest of its row group, in one query", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    // One row group of 25,000 rows: three blocks of 10,240, 10,240 and 4,520.
    await w.version("wide", 1, {
      parts: [{ sql: "SELECT range::BIGINT AS id, 'r' || range AS s FROM range(25000)", rowGroupSize: 200_000 }],
    });
    w.close();
    const engine = await openReadEngine(dir.path);
    try {
      const version = (await openStore(dir.path).version("wide", 1))!;
      let decodes = 0;
      const counted = {
        ...engine,
        use: <T>(fn: Parameters<typeof engine.use<T>>[0], options?: { first?: boolean }) => {
          if (options?.first) decodes++;
          return engine.use(fn, options);
        },
      };
      const cache = pageCache(64 * 1024 * 1024);
      const pages = pageReader(counted, { cache });
      const want = await pageReader(engine).page(version, 20_400, 300);
      await pages.page(version, 100, 10);
      await pages.settle();
      assertEquals([decodes, cache.stats().groups], [1, 3], "the row group's three blocks in one decode");
      assertEquals(await pages.page(version, 20_400, 300), want, "across the second and third blocks, from memory");
      assertEquals([decodes, cache.stats().hits], [1, 1]);
    } finally {
      await engine.close();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("a view's page is cut from the cache when it holds every record of it, else read from the parts as before", async () => {
  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const store = openStore(root);
      const cache = pageCache(64 * 1024 * 1024);
      const reader = pageReader(engine, { cache });
      const specs: [string, ViewSpec, number, number][] = [
        ["many", { filters: [{ column: "id", op: "gte", values: ["95"] }], search: null, sort: null }, 0, 10],
        ["many", { filters: [{ column: "id", op: "gte", values: ["95"] }], search: null, sort: null }, 500, 20],
        ["many", { filters: [{ column: "id", op: "lt", values: ["700"] }], search: null, sort: DESC }, 3, 50],
        ["many", { filters: [{ column: "id", op: "gt", values: ["5000"] }], search: null, sort: null }, 0, 10],
        ["typed", { filters: [{ column: "id", op: "gte", values: ["1"] }], search: null, sort: null }, 0, 10],
        ["extra", { filters: [{ column: "name", op: "eq", values: ["c"] }], search: null, sort: null }, 0, 10],
        ["extra", { filters: [], search: "B", sort: { column: "name", descending: true } }, 0, 10],
        ["rownum", { filters: [{ column: "id", op: "gte", values: ["2"] }], search: null, sort: null }, 0, 10],
      ];
      const pageOf = async (slug: string, spec: ViewSpec, offset: number, limit: number, cut: boolean) => {
        const version = (await store.version(slug, 1))!;
        const paths = version.parts.map((p) => p.path);
        const shape = await viewShape(engine, paths);
        const answers: (string[] | null)[] = [];
        const from = cachedRecords(reader, version);
        const spy: CachedRecords = async (places) => {
          const got = await from(places);
          answers.push(got);
          return got;
        };
        const page = await viewPage(engine, paths, shape, spec, offset, limit, undefined, cut ? spy : undefined);
        return { page, answers };
      };
      const cold = [];
      for (const [slug, spec, offset, limit] of specs) {
        const want = (await pageOf(slug, spec, offset, limit, false)).page;
        const { page, answers } = await pageOf(slug, spec, offset, limit, true);
        assertEquals(page, want, `${slug} ${JSON.stringify(spec)} cold`);
        cold.push(answers);
      }
      assertEquals(cold[0], [null], "the first page missed: read from the parts");
      await reader.settle();
      assert(cache.stats().groups > 0, "the blocks a view's page missed are decoded behind it");
      for (const slug of ["many", "typed", "extra", "rownum"]) {
        await reader.page((await store.version(slug, 1))!, 0, 1000);
      }
      await reader.settle();
      for (const [slug, spec, offset, limit] of specs) {
        const want = (await pageOf(slug, spec, offset, limit, false)).page;
        const { page, answers } = await pageOf(slug, spec, offset, limit, true);
        assertEquals(page, want, `${slug} ${JSON.stringify(spec)} from the cache`);
        // `rownum`'s records have a field named as DuckDB's row number: their places are not asked for.
        assertEquals(answers, slug === "rownum" ? [] : [want.records], `${slug} ${JSON.stringify(spec)}: cut`);
      }
    } finally {
      await engine.close();
    }
  });
});

Deno.test("a trim that releases hands back the memory of the blocks it gives up at once; without, a block held from before reads on", () => {
  const records = Array.from({ length: 500 }, (_, i) => JSON.stringify({ id: i, note: "n".repeat(100) }));
  const sha = "ab".repeat(32);
  for (const release of [false, true]) {
    const cache = pageCache(1024 * 1024, { compressed: true });
    for (let g = 0; g < 4; g++) cache.set(sha, g * 500, cachedGroup(records));
    const held = [0, 500, 1000, 1500].map((start) => cache.get(sha, start)!);
    cache.trim(Math.ceil(cache.stats().bytes / 4), { release });
    if (release) {
      for (const g of held) assertThrows(() => g.bytes(0, 500), /detached/);
    } else {
      const reads = held.map((g) => new TextDecoder().decode(g.bytes(0, 500)));
      assertEquals(reads, held.map(() => records.join(",")), "a block held from before the trim reads on");
    }
    const kept = [0, 500, 1000, 1500].map((start) => cache.get(sha, start)?.records(0, 500));
    assertEquals(kept.filter((r) => r !== undefined), kept.filter((r) => r !== undefined).map(() => records));
    assert(kept.some((r) => r !== undefined), "the trim kept blocks, compressed, that read the same");
  }
});

Deno.test("a cache trimmed while pages are read frees no block a read holds: every page reads whole", async () => {
  await withTypedStore(async (root) => {
    const engine = await openReadEngine(root);
    try {
      const version = (await openStore(root).version("many", 1))!;
      const plain = pageReader(engine);
      const cache = pageCache(64 * 1024 * 1024, { compressed: true });
      const cached = pageReader(engine, { cache });
      const text = (got: { bytes: Uint8Array }) => new TextDecoder().decode(got.bytes);
      const wants = await Promise.all(RANGES.map(([offset, limit]) => plain.pageBytes(version, offset, limit)));
      for (let round = 0; round < 10; round++) {
        for (const [offset, limit] of RANGES) await cached.page(version, offset, limit);
        await cached.settle();
        // Reads across parts hold the blocks of one part while they await the next: trims land in between.
        const reads = Promise.all(RANGES.map(([offset, limit]) => cached.pageBytes(version, offset, limit)));
        let reading = true;
        const trims = (async () => {
          while (reading) {
            cached.trimCache(Math.floor(cache.stats().bytes / 4));
            await new Promise((r) => setTimeout(r, 0));
          }
        })();
        const got = await reads.finally(() => (reading = false));
        await trims;
        assertEquals(got.map(text), wants.map(text), `round ${round}`);
      }
      cached.trimCache(0);
      assertEquals(cache.stats().groups, 0, "at rest, the trim runs whole");
    } finally {
      await engine.close();
    }
  });
});
