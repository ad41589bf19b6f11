import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { knownCgroupLimit, memoryPlan, nodeMemoryPlan, parseServeArgs } from "../../src/settings/mod.ts";

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

Deno.test("every share of a plan is carved from its budget, and a large budget keeps the old ceilings", () => {
  for (const budget of [256 * MIB, 512 * MIB, GIB, 2 * GIB, 6 * GIB, 64 * GIB]) {
    const plan = memoryPlan(budget, "flag");
    const carved = plan.pageCache + plan.readEngine + plan.download + plan.sqlWorkers * plan.sqlWorker;
    assertEquals(plan.sqlWorkers, budget < GIB ? 1 : 2, `${budget}: SQL workers`);
    if (budget >= 512 * MIB) assert(carved < budget, `${budget}: ${carved} carved`);
    assert(plan.sqlRecycleAbove > plan.sqlWorker, "a worker is recycled past its DuckDB share, not under it");
    assert(plan.exportsAtOnce >= 1 && plan.exportsAtOnce <= 4);
    assertEquals(plan.outside, []);
  }
  const small = memoryPlan(512 * MIB, "flag");
  assert(small.pageCache > 64 * MIB && small.pageCache < 96 * MIB && small.exportsAtOnce === 1, JSON.stringify(small));
  assertEquals(small.readEngine, 128 * MIB, "the node's DuckDB at its floor");
  assertEquals(
    [small.pageCacheCompressed, small.readConnections, small.exportBlocks, small.semiSpace],
    [true, 4, 1, 16 * MIB],
    "a small budget compresses its cache to make room, builds less ahead, keeps a smaller young generation; its DuckDB's pool bounds its queries",
  );
  const large = memoryPlan(64 * GIB, "machine");
  assertEquals([large.pageCache, large.readEngine, large.download, large.exportsAtOnce], [
    256 * MIB,
    512 * MIB,
    256 * MIB,
    4,
  ]);
  assertEquals([large.pageCacheCompressed, large.readConnections, large.exportBlocks, large.semiSpace], [
    false,
    4,
    8,
    null,
  ]);
  assertEquals(
    memoryPlan(512 * MIB, "flag", { pageCache: 0 }).pageCacheCompressed,
    false,
    "no cache, nothing compressed",
  );
});

Deno.test("a page cache set by hand past its share is kept, and said", () => {
  const plan = memoryPlan(512 * MIB, "flag", { pageCache: GIB });
  assertEquals(plan.pageCache, GIB);
  assertEquals(plan.outside.length, 1);
  assert(/page cache \(--page-cache 1GiB\) is past its share/.test(plan.outside[0]), plan.outside[0]);
  assertEquals(memoryPlan(512 * MIB, "flag", { pageCache: 0 }).pageCache, 0);
});

Deno.test("the cgroup's limit comes from the launcher's variable first (a narrowed node may not read /proc/self)", () => {
  assertEquals(knownCgroupLimit({ SVC_CGROUP_MEMORY_LIMIT: "536870912" }), 536870912);
  assertEquals(knownCgroupLimit({ SVC_CGROUP_MEMORY_LIMIT: "none" }), null);
  const told = nodeMemoryPlan(null, { SVC_CGROUP_MEMORY_LIMIT: String(512 * MIB) });
  assertEquals([told.budget, told.source], [384 * MIB, "cgroup"]);
});

Deno.test("--memory and SVC_NODE_MEMORY take a size of at least 256 MiB; the flag wins", () => {
  assertEquals(parseServeArgs(["--memory", "512MiB"], {}).memory.budget, 512 * MIB);
  assertEquals(parseServeArgs(["--memory=1GiB"], { SVC_NODE_MEMORY: "2GiB" }).memory.budget, GIB);
  const fromEnv = parseServeArgs([], { SVC_NODE_MEMORY: "2GiB" });
  assertEquals([fromEnv.memory.budget, fromEnv.memory.source], [2 * GIB, "flag"]);
  for (const bad of ["lots", "100MiB", "-1", "0"]) {
    assertThrows(() => parseServeArgs([`--memory=${bad}`], {}), /--memory must be a size of at least 256MiB/);
  }
  const settings = parseServeArgs(["--memory", "512MiB", "--page-cache", "8MiB"], {});
  assertEquals(settings.memory.pageCache, 8 * MIB);
});
