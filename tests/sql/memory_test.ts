/**
 * The SQL workers' hard memory ceiling (RLIMIT_DATA) and their recycling:
 * allocations DuckDB's own memory_limit does not count fail inside the
 * query, the node answers on, and a worker that grew is replaced so the
 * memory goes back to the machine.
 */
import { memoryPlan } from "../../src/settings/mod.ts";
import { readFile } from "node:fs/promises";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { sql } from "./_query.ts";
import { defaultSqlMemory, parseBytes, workerMemory } from "../../src/sql/memory.ts";

const GIB = 1024 ** 3;

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function until(condition: () => Promise<boolean> | boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("memory settings: a quarter of the machine per worker within 1-4 GiB; sizes read as people write them", () => {
  assertEquals(defaultSqlMemory(24 * GIB), 4 * GIB);
  assertEquals(defaultSqlMemory(8 * GIB), 2 * GIB);
  assertEquals(defaultSqlMemory(2 * GIB), GIB);
  assert(workerMemory(2 * GIB).duckdb < 2 * GIB);
  assertEquals([parseBytes("2GiB"), parseBytes("1500MB"), parseBytes("512m"), parseBytes("1.5 GB")], [
    2 * GIB,
    1.5e9,
    512e6,
    1.5e9,
  ]);
  for (const bad of ["lots", "-1GB", "2XB", ""]) assertEquals(parseBytes(bad), null, bad);
});

Deno.test("a query past the worker's ceiling fails clearly; the worker stays small and the node answers on", async () => {
  await withNode({ sql: { memory: 1.5 * GIB } }, async ({ url, serving }) => {
    await sql(url, "SELECT 1");
    for (
      const bomb of [
        "SELECT repeat('x', 1200000000) AS s",
        "SELECT repeat('x', 1200000000) AS a, repeat('y', 1200000000) AS b",
        "SELECT length(repeat('x', 1200000000)) AS n",
      ]
    ) {
      const r = await sql(url, bomb);
      assertEquals(r.status, 400, `${bomb}: ${r.text.slice(0, 200)}`);
      assertMatch(r.body.error, /needed more memory than this node gives one query \(1\.5 GiB\)/);
      const next = await sql(url, "SELECT 42 AS n");
      assertEquals(next.body.rows, [[42]], "the node answers the next query");
      for (const pid of serving.node.sqlPids()) {
        const rss = await residentBytes(pid);
        assert(rss < 1.5 * GIB, `worker ${pid} holds ${Math.round(rss / 2 ** 20)} MiB after ${bomb}`);
      }
    }
  });
});

Deno.test("a worker that grew past its recycling size is replaced after answering, and memory returns", async () => {
  const recycleAbove = 300 * 1024 ** 2;
  await withNode({ sql: { size: 1, memory: 3 * GIB, recycleAbove } }, async ({ url, serving }) => {
    await sql(url, "SELECT 1");
    const [before] = serving.node.sqlPids();
    const big = await sql(
      url,
      "SELECT count(DISTINCT s) AS n FROM (SELECT repeat('x', 200) || i::VARCHAR AS s FROM range(3000000) t(i))",
    );
    assertEquals(big.body.rows, [[3000000]], big.text);
    await until(() => serving.node.sqlPids().length === 1 && serving.node.sqlPids()[0] !== before, "a new worker");
    const [after] = serving.node.sqlPids();
    assert((await residentBytes(after)) < recycleAbove, "the new worker is small");
    assertEquals((await sql(url, "SELECT 7 AS n")).body.rows, [[7]]);
  });
});

Deno.test("values too large to answer are refused with the limit named before they become strings", async () => {
  // At a 4 GiB ceiling DuckDB builds these values within its own limit; the runtime would then need as much again.
  // Building 600 MB takes seconds, many more on a busy machine: the deadline is not what this test is about.
  // A budget large enough that the worker's DuckDB gets its whole 40% of the ceiling (1.6 GiB).
  const memory = memoryPlan(16 * GIB, "flag", { sqlCeiling: 4 * GIB });
  await withNode({ memory, sql: { memory: 4 * GIB, size: 1, timeoutMs: 120_000 } }, async ({ url, serving }) => {
    await sql(url, "SELECT 1");
    for (
      const big of [
        "SELECT repeat('x', 600000000) AS s",
        "SELECT [repeat('x', 300000000)] AS l",
        "SELECT {'a': repeat('x', 300000000)} AS st",
        "SELECT repeat('x', 20000000) AS s FROM range(3)",
      ]
    ) {
      const r = await sql(url, big);
      assertEquals([r.status, r.body.error], [
        400,
        "the answer is over 32 MiB: select fewer or smaller columns, or fewer rows",
      ], big);
      // The worker is kept, or replaced quietly when building the value left it large (recycling).
      assertEquals((await sql(url, "SELECT 42 AS n")).body.rows, [[42]], `the node answers after ${big}`);
    }
    assert(serving.node.sqlPids().length === 1);
  });
});
