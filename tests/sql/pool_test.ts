/**
 * The worker pool's limits over real HTTP: time limit (408, the query really
 * stopped), two at once and a third that waits then gets 429, and workers
 * that crash or stop answering are replaced while the node keeps serving.
 */
import { realpath } from "node:fs/promises";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { sql } from "./_query.ts";
import { CONCURRENCY, createSqlPool, QUERY_TIMEOUT_MS, QUEUE_WAIT_MS, sqlSource } from "../../src/sql/mod.ts";
import { openStore } from "../../src/store/mod.ts";

const FOREVER = "SELECT count(*) FROM range(1000000000000)";

Deno.test("the spec's limits are the defaults", () => {
  assertEquals([QUERY_TIMEOUT_MS, CONCURRENCY], [20_000, 2]);
  assert(QUEUE_WAIT_MS >= 1000 && QUEUE_WAIT_MS <= 10_000, "a third query waits a few seconds, at most 10");
});

Deno.test("a query over the time limit answers 408 and is really stopped", async () => {
  await withNode({ sql: { timeoutMs: 1500, interruptGraceMs: 3000 } }, async ({ url, serving }) => {
    await sql(url, "SELECT 1");
    const before = serving.node.sqlPids();
    const started = Date.now();
    const r = await sql(url, FOREVER);
    assertEquals(r.status, 408);
    assertEquals(r.body, { error: "the query ran longer than 1.5 seconds and was stopped" });
    assert(Date.now() - started < 4000);
    const next = await sql(url, "SELECT 2");
    assertEquals(next.body.rows, [[2]]);
    assert(next.body.ms < 1000, "the worker is free again: the runaway query stopped");
    assertEquals(serving.node.sqlPids().sort(), before.sort(), "interrupted, not killed");
  });
});

Deno.test("two queries run at once; a third waits, then gets 429 with Retry-After", async () => {
  await withNode({ sql: { timeoutMs: 2500, queueWaitMs: 600 } }, async ({ url }) => {
    const running = [sql(url, FOREVER), sql(url, FOREVER)];
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const third = await sql(url, "SELECT 3");
    const waited = Date.now() - started;
    assertEquals(third.status, 429);
    assertEquals(third.headers.get("retry-after"), "2");
    assertMatch(third.body.error, /too many queries at once: 2 are running/);
    assert(waited >= 500, `it waited first (${waited} ms)`);
    assertEquals((await Promise.all(running)).map((r) => r.status), [408, 408]);
    assertEquals((await sql(url, "SELECT 4")).body.rows, [[4]]);
  });
});

Deno.test("a third query that finds a worker free within the wait runs", async () => {
  await withNode({ sql: { timeoutMs: 800, queueWaitMs: 3000 } }, async ({ url }) => {
    const answers = await Promise.all([sql(url, FOREVER), sql(url, FOREVER), sql(url, "SELECT 5")]);
    assertEquals(answers.map((r) => r.status), [408, 408, 200]);
    assertEquals(answers[2].body.rows, [[5]]);
  });
});

Deno.test("a worker killed mid-query answers 500, is replaced, and the node keeps serving", async () => {
  await withNode({ sql: { timeoutMs: 10_000 } }, async ({ url, serving }) => {
    await Promise.all([sql(url, "SELECT 1"), sql(url, "SELECT 1")]);
    const pids = serving.node.sqlPids();
    assertEquals(pids.length, 2);
    const pending = sql(url, FOREVER);
    await new Promise((r) => setTimeout(r, 500));
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* already gone */ }
    }
    const r = await pending;
    assertEquals(r.status, 500);
    assertMatch(r.body.error, /stopped while running this query/);
    const after = await sql(url, "SELECT count(*) FROM records");
    assertEquals(after.body.rows, [[600]]);
    assert(serving.node.sqlPids().every((pid) => !pids.includes(pid)), "fresh workers");
    assertEquals((await fetch(`${url}/healthz`)).status, 200);
  });
});

Deno.test("a worker that ignores the interrupt is killed after the grace and replaced", async () => {
  await withNode({ sql: { timeoutMs: 1000, interruptGraceMs: 1000, size: 1 } }, async ({ url, serving }) => {
    await sql(url, "SELECT 1");
    const [pid] = serving.node.sqlPids();
    const pending = sql(url, FOREVER);
    await new Promise((r) => setTimeout(r, 300));
    Deno.kill(pid, "SIGSTOP");
    const started = Date.now();
    const r = await pending;
    assertEquals(r.status, 408);
    assert(Date.now() - started < 4000);
    const next = await sql(url, "SELECT 6");
    assertEquals(next.body.rows, [[6]], `${next.status} ${JSON.stringify(next.body)}`);
    assert(!serving.node.sqlPids().includes(pid), "the stopped worker was replaced");
  });
});

Deno.test("workers start with the first query and stop after sitting idle; the next query starts one again", async () => {
  await withNode({ sql: { idleMs: 300 } }, async ({ url, serving }) => {
    assertEquals(serving.node.sqlPids(), [], "none at start");
    assertEquals((await sql(url, "SELECT 1")).body.rows, [[1]]);
    const [first] = serving.node.sqlPids();
    assert(first !== undefined, "the first query started one");
    const deadline = Date.now() + 10_000;
    while (serving.node.sqlPids().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assertEquals(serving.node.sqlPids(), [], "stopped once idle");
    assertEquals((await sql(url, "SELECT 2")).body.rows, [[2]]);
    assert(serving.node.sqlPids().length === 1 && serving.node.sqlPids()[0] !== first, "a new worker");
  });
});

Deno.test("a worker killed while idle, its exit not seen yet, costs the next query nothing: a fresh worker runs it", async () => {
  const dir = await tempDir();
  const root = await realpath(dir.path);
  const pool = createSqlPool({ storeRoot: root, size: 1, idleMs: 0 });
  try {
    await citiesStore(dir.path);
    const version = await openStore(dir.path).version("cities", 2);
    assert(version !== null);
    const source = await sqlSource(root, version);
    await pool.query(source, "SELECT 1", 10);
    const [pid] = pool.pids();
    // Killed, and the query sent in the same turn: the pool cannot have seen the exit.
    Deno.kill(pid, "SIGKILL");
    const answer = await pool.query(source, "SELECT count(*) FROM records", 10);
    assertEquals(JSON.parse(answer.rows), [[600]]);
    assert(!pool.pids().includes(pid), "a fresh worker");
  } finally {
    await pool.close();
    await dir.cleanup();
  }
});
