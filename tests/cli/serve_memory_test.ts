/**
 * `svc serve --memory` for real: the narrowed node takes its budget from the
 * flag, or from the cgroup's limit as `svc serve` read it before narrowing
 * (the node may not read `/proc/self`), and the node and its SQL workers run
 * with the C library's allocator settings that give memory back.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type ServeProcess, startServe } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import type { MemoryHealth } from "../../src/wire/mod.ts";
import { NODE_TIER_UP_FLAGS } from "../../src/launch/mod.ts";

const MIB = 1024 ** 2;

async function memoryOf(node: ServeProcess): Promise<MemoryHealth> {
  return ((await (await fetch(`${node.url}/healthz`)).json()) as { memory: MemoryHealth }).memory;
}

async function environ(pid: number): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(`/proc/${pid}/environ`);
  return Object.fromEntries(
    text.split("\0").filter(Boolean).map((kv) => [kv.split("=")[0], kv.slice(kv.indexOf("=") + 1)]),
  );
}

async function cmdline(pid: number): Promise<string[]> {
  return (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean);
}

/** Runs one SQL query on the cities project (it must answer 200) and gives the SQL workers' pids, at least one. */
async function sqlWorkersAfterQuery(node: ServeProcess): Promise<number[]> {
  const res = await fetch(`${node.url}/projects/cities/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql: "SELECT count(*) FROM records" }),
  });
  assertEquals(res.status, 200, await res.text());
  const workers = (await Deno.readTextFile(`/proc/${node.child.pid}/task/${node.child.pid}/children`)).trim()
    .split(/\s+/).filter(Boolean).map(Number);
  assert(workers.length > 0, "a SQL worker runs under the node");
  return workers;
}

async function stop(node: ServeProcess): Promise<void> {
  node.child.kill("SIGTERM");
  assertEquals((await node.status).code, 0, node.stderr());
}

Deno.test("svc serve --memory: the budget is the narrowed node's, in /healthz, with its shares", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "store");
  await citiesStore(store);
  const node = await startServe(["--store", store, "--memory", "512MiB"], { SVC_TRUST_FILE: join(dir.path, "t.json") });
  try {
    const memory = await memoryOf(node);
    assertEquals([memory.budget, memory.source, memory.exportsAtOnce, memory.sqlWorkers], [512 * MIB, "flag", 1, 1]);
    assertEquals([memory.exportBlocks, memory.pageCacheCompressed, memory.semiSpace], [1, true, 16 * MIB]);
    assert(memory.pageCache > 64 * MIB && memory.pageCache < 96 * MIB, String(memory.pageCache));
    const own = await cmdline(node.child.pid);
    assert(own.includes("--v8-flags=--max-semi-space-size=16"), `V8's young generation is sized: ${own.join(" ")}`);
    assert(own.includes("--v8-flags=--initial-old-space-size=64"), `the old generation is floored: ${own.join(" ")}`);
    assert(
      own.includes("--v8-flags=--no-memory-reducer"),
      `the idle trim, not V8, hands memory back: ${own.join(" ")}`,
    );
    for (const flag of NODE_TIER_UP_FLAGS) assert(own.includes(`--v8-flags=${flag}`), `${flag}: ${own.join(" ")}`);
    assert(memory.resident.node > 20 * MIB && memory.resident.node < 512 * MIB, String(memory.resident.node));
  } finally {
    await stop(node);
    await dir.cleanup();
  }
});

Deno.test("svc serve without --memory: three quarters of the cgroup's limit told to the narrowed node; malloc settings for node and workers", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "store");
  await citiesStore(store);
  const node = await startServe(["--store", store], {
    SVC_TRUST_FILE: join(dir.path, "t.json"),
    SVC_CGROUP_MEMORY_LIMIT: String(1024 * MIB),
    MALLOC_ARENA_MAX: "3",
  });
  try {
    const memory = await memoryOf(node);
    assertEquals([memory.budget, memory.source, memory.sqlWorkers], [768 * MIB, "cgroup", 1]);
    const env = await environ(node.child.pid);
    assertEquals(env.MALLOC_ARENA_MAX, "3", "the operator's setting is kept");
    assertEquals([env.MALLOC_TRIM_THRESHOLD_, env.MALLOC_MMAP_THRESHOLD_], ["131072", "262144"]);
    const workers = await sqlWorkersAfterQuery(node);
    assert(
      (await cmdline(node.child.pid)).includes("--v8-flags=--max-semi-space-size=16"),
      "768 MiB: 16 MiB, the most",
    );
    for (const pid of workers) {
      const own = await environ(pid);
      assertEquals([own.MALLOC_ARENA_MAX, own.MALLOC_TRIM_THRESHOLD_], ["3", "131072"], `worker ${pid}`);
      const line = (await cmdline(pid)).join(" ");
      assert(line.includes("--v8-flags=--max-semi-space-size=16 "), `worker ${pid}: ${line}`);
    }
  } finally {
    await stop(node);
    await dir.cleanup();
  }
});

Deno.test("svc serve --memory 8GiB: V8's own young generation; the node runs without V8's memory reducer, its SQL workers with it", async () => {
  const dir = await tempDir();
  const store = join(dir.path, "store");
  await citiesStore(store);
  const node = await startServe(["--store", store, "--memory", "8GiB"], { SVC_TRUST_FILE: join(dir.path, "t.json") });
  try {
    assertEquals((await memoryOf(node)).semiSpace, null, "V8's own young generation");
    const own = await cmdline(node.child.pid);
    assert(own.includes("--v8-flags=--no-memory-reducer"), own.join(" "));
    assert(!own.some((a) => a.includes("semi-space")), own.join(" "));
    const workers = await sqlWorkersAfterQuery(node);
    for (const pid of workers) {
      const line = (await cmdline(pid)).join(" ");
      assert(!line.includes("memory-reducer") && !line.includes("semi-space"), `worker ${pid}: ${line}`);
    }
  } finally {
    await stop(node);
    await dir.cleanup();
  }
});
