import { assert, assertEquals } from "../support/assert.ts";
import {
  COLLECT_AFTER_MS,
  idleRecord,
  idleTrim,
  memoryHealth,
  TRIM_AFTER_MAX_MS,
  TRIM_AFTER_MS,
} from "../../src/service/mod.ts";
import { cachedGroup, pageCache } from "../../src/parquet/mod.ts";
import { memoryPlan } from "../../src/settings/mod.ts";

const plan = memoryPlan(512 * 1024 ** 2, "flag");

/** A node's state as the trim sees it: a clock, its requests, and a page cache of one group per key. */
function idleNode(cacheBytes: number) {
  let clock = 1_000_000;
  const cache = pageCache(cacheBytes);
  let returned = 0;
  let writersClosed = 0;
  let collected = 0;
  const ctx = {
    now: () => clock,
    activity: { inFlight: 0, lastEnded: clock },
    idle: idleRecord(),
    // A budget the cache is a large share of (a sixteenth of it or less is left whole).
    memory: { ...plan, budget: cacheBytes * 4, pageCache: cacheBytes },
    pages: { trimCache: (bytes: number) => cache.trim(bytes) },
    engine: { returnFreeMemory: () => (returned++, Promise.resolve()) },
    parquetWriters: { closeIdle: () => (writersClosed++, Promise.resolve()) },
    // Half the budget resident unless a test says otherwise: over the share that is collected.
    resident: () => cacheBytes * 2,
    collect: () => void collected++,
  };
  return {
    ctx,
    cache,
    advance: (ms: number) => (clock += ms),
    returned: () => returned,
    writersClosed: () => writersClosed,
    collected: () => collected,
  };
}

/** Fills `cache` with `groups` groups of one record each: text no compression shrinks, or (`compressible`) one that does. */
function fill(cache: ReturnType<typeof pageCache>, groups: number, compressible = false): void {
  for (let i = 0; i < groups; i++) {
    const text = compressible
      ? "x".repeat(1000)
      : Array.from(crypto.getRandomValues(new Uint8Array(500)), (b) => b.toString(16).padStart(2, "0")).join("");
    cache.set("ab".repeat(32), i, cachedGroup([`{"n":"${text}"}`]));
  }
}

Deno.test("idle trim: after 15 s without a request the page cache keeps a quarter (its newest), once per idle spell", async () => {
  const { ctx, cache, advance, returned, writersClosed, collected } = idleNode(64 * 1024);
  fill(cache, 40);
  const full = cache.stats().bytes;
  const trim = idleTrim(ctx as never, 60_000);
  try {
    advance(TRIM_AFTER_MS - 1);
    assertEquals(trim.check(), false, "not idle long enough");
    ctx.activity.inFlight = 1;
    advance(TRIM_AFTER_MS);
    assertEquals(trim.check(), false, "a request in flight is not idle");
    ctx.activity.inFlight = 0;
    assertEquals(trim.check(), true);
    await new Promise((r) => setTimeout(r, 0));
    assertEquals(writersClosed(), 1, "the DuckDB kept for Parquet downloads is closed");
    assertEquals([collected(), returned()], [0, 0], "no collection yet: the next load keeps its compiled code");
    const kept = cache.stats();
    assert(kept.bytes <= 16 * 1024 && kept.bytes > 12 * 1024, `kept ${kept.bytes} of ${full}: a quarter of 64 KiB`);
    assert(cache.get("ab".repeat(32), 39) !== undefined, "the newest group is kept");
    assertEquals(cache.get("ab".repeat(32), 0), undefined, "the oldest is dropped");
    fill(cache, 40);
    advance(COLLECT_AFTER_MS - (ctx.now() - ctx.activity.lastEnded) - 1);
    assertEquals(trim.check(), false, "the same idle spell is trimmed once");
    assertEquals(cache.stats().groups, 40, "the blocks read since stay");
    advance(1);
    assertEquals(trim.check(), true, "45 s idle: collected");
    await new Promise((r) => setTimeout(r, 0));
    assertEquals([collected(), returned(), ctx.idle.collections], [1, 1, 1], "and the freed memory handed back");
    advance(COLLECT_AFTER_MS);
    assertEquals(trim.check(), false, "the same idle spell is collected once");
    ctx.activity.lastEnded = ctx.now();
    advance(TRIM_AFTER_MS);
    assertEquals(trim.check(), true, "a new spell after a request is trimmed again");
    advance(COLLECT_AFTER_MS - TRIM_AFTER_MS);
    assertEquals(trim.check(), true, "and collected again");
    await new Promise((r) => setTimeout(r, 0));
    assertEquals([collected(), returned(), ctx.idle], [2, 2, { waitMs: TRIM_AFTER_MS, trims: 2, collections: 2 }]);
  } finally {
    await trim.stop();
  }
});

Deno.test("idle trim: load back within a wait of a trim doubles the wait, up to 45 s; an idle spell as long as the wait after a trim resets it", async () => {
  const { ctx, advance } = idleNode(64 * 1024);
  const trim = idleTrim(ctx as never, 60_000);
  /** A request that comes `after` ms past the latest check and ends at once. */
  const request = (after: number) => {
    advance(after);
    ctx.activity.lastEnded = ctx.now();
    trim.check();
  };
  try {
    advance(TRIM_AFTER_MS);
    assertEquals([trim.check(), ctx.idle], [true, { waitMs: 15_000, trims: 1, collections: 0 }]);
    request(2_000);
    assertEquals(ctx.idle.waitMs, 30_000, "load came back 2 s after the trim: the next waits twice as long");
    advance(TRIM_AFTER_MS + 2_000);
    assertEquals(trim.check(), false, "17 s idle is not enough now");
    request(0);
    advance(30_000);
    assertEquals([trim.check(), ctx.idle.trims], [true, 2], "30 s idle is");
    // A request in flight is load come back too.
    advance(5_000);
    ctx.activity.inFlight = 1;
    assertEquals([trim.check(), ctx.idle.waitMs], [false, TRIM_AFTER_MAX_MS]);
    ctx.activity.inFlight = 0;
    request(1_000);
    advance(TRIM_AFTER_MAX_MS);
    assertEquals(trim.check(), true);
    request(1_000);
    assertEquals(ctx.idle.waitMs, TRIM_AFTER_MAX_MS, "never past 45 s: a node idle for a minute gives its memory back");
    advance(TRIM_AFTER_MAX_MS);
    assertEquals([trim.check(), ctx.idle.trims], [true, 4]);
    request(TRIM_AFTER_MAX_MS);
    assertEquals(
      ctx.idle.waitMs,
      TRIM_AFTER_MS,
      "idle a whole wait after the trim: the trim was worth it, back to 15 s",
    );
    advance(TRIM_AFTER_MS);
    assertEquals([trim.check(), ctx.idle.trims], [true, 5]);
  } finally {
    await trim.stop();
  }
});

Deno.test("idle trim: a page cache within a sixteenth of the budget is left whole; the rest of the trim runs", async () => {
  const { ctx, cache, advance, returned, writersClosed, collected } = idleNode(64 * 1024);
  ctx.memory = { ...ctx.memory, budget: 64 * 1024 * 16 };
  ctx.resident = () => ctx.memory.budget / 2;
  fill(cache, 40);
  const full = cache.stats();
  const trim = idleTrim(ctx as never, 60_000);
  try {
    advance(TRIM_AFTER_MS);
    assertEquals(trim.check(), true);
    await new Promise((r) => setTimeout(r, 0));
    assertEquals([cache.stats().bytes, cache.stats().groups], [full.bytes, full.groups], "every block kept as it was");
    assertEquals(writersClosed(), 1, "the DuckDB kept for Parquet downloads is closed all the same");
    advance(COLLECT_AFTER_MS - TRIM_AFTER_MS);
    assertEquals(trim.check(), true);
    await new Promise((r) => setTimeout(r, 0));
    assertEquals([collected(), returned()], [1, 1], "and the node collected at 45 s, its freed memory handed back");
  } finally {
    await trim.stop();
  }
});

Deno.test("idle trim: collected and its allocators emptied only when the node holds more than an eighth of its budget", async () => {
  const { ctx, advance, returned, collected, writersClosed } = idleNode(64 * 1024);
  const budget = ctx.memory.budget;
  const trim = idleTrim(ctx as never, 60_000);
  try {
    advance(COLLECT_AFTER_MS);
    assertEquals(trim.check(), true, "trimmed and collected in one look when the first comes 45 s into the spell");
    assertEquals(collected(), 1, "half the budget resident: collected");
    await new Promise((r) => setTimeout(r, 0));
    assertEquals(returned(), 1, "and what the allocators hold free handed back");
    ctx.resident = () => budget / 8;
    ctx.activity.lastEnded = ctx.now();
    advance(COLLECT_AFTER_MS);
    assertEquals(trim.check(), true, "trimmed");
    assertEquals([collected(), ctx.idle.collections], [1, 1], "an eighth of the budget resident: not collected");
    await new Promise((r) => setTimeout(r, 0));
    assertEquals(returned(), 1, "nor its allocators emptied");
    assertEquals(writersClosed(), 2, "the DuckDB kept for Parquet downloads is closed either way");
  } finally {
    await trim.stop();
  }
});

Deno.test("page cache trim keeps the most recently used groups within the size asked, and 0 empties it", () => {
  const cache = pageCache(1024 * 1024);
  fill(cache, 10);
  cache.get("ab".repeat(32), 2); // now the most recently used
  const one = cache.stats().bytes / 10;
  cache.trim(Math.ceil(one * 2));
  assert(cache.stats().bytes <= Math.ceil(one * 2) && cache.stats().groups < 10, JSON.stringify(cache.stats()));
  assert(cache.get("ab".repeat(32), 2) !== undefined && cache.get("ab".repeat(32), 9) !== undefined);
  assertEquals(cache.get("ab".repeat(32), 0), undefined, "the least recently used is dropped");
  cache.trim(0);
  assertEquals([cache.stats().groups, cache.stats().bytes], [0, 0]);
});

Deno.test("page cache trim compresses groups before it drops any, and a group read with room comes back plain", () => {
  const cache = pageCache(1024 * 1024);
  fill(cache, 10, true);
  const whole = cache.stats().bytes;
  cache.trim(Math.ceil(whole / 4));
  assertEquals(cache.stats().groups, 10, "compressed, all of them fit");
  assert(cache.stats().bytes <= whole / 4, `${cache.stats().bytes} of ${whole}`);
  const group = cache.get("ab".repeat(32), 3)!;
  assertEquals([group.compressed, JSON.parse(group.records(0, 1)[0]).n.length], [false, 1000], "plain again, the same");
});

Deno.test("memory health: the plan, the node's resident bytes now, and the workers' as they last said", () => {
  const health = memoryHealth({
    memory: plan,
    sql: { stats: () => ({ resident: 123, workers: 1 }) },
    memoryGate: { baseline: () => 200 * 1024 ** 2, overAtRest: () => false },
    pages: {
      cacheStats: () => ({ maxBytes: 8192, bytes: 4096, groups: 1, hits: 0, misses: 0, compressed: false }),
    },
    idle: { waitMs: 30_000, trims: 2, collections: 1 },
  });
  assertEquals(health.idleTrim, { waitMs: 30_000, trims: 2, collections: 1 });
  assertEquals([health.budget, health.source, health.resident.sqlWorkers], [plan.budget, "flag", 123]);
  assert(health.resident.node > 10 * 1024 ** 2, String(health.resident.node));
  assertEquals([health.atRest, health.overBudgetAtRest, health.held.pageCache], [200 * 1024 ** 2, false, 4096]);
  assert(health.held.jsHeap > 0, "the heap in use");
});
