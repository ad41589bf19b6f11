import { assert, assertEquals } from "../support/assert.ts";
import { gunzipSync } from "node:zlib";
import { withNode } from "../support/node.ts";
import { memoryPlan } from "../../src/settings/mod.ts";
import type { MemoryHealth } from "../../src/wire/mod.ts";

const MIB = 1024 ** 2;

/**
 * The shares of a 512 MiB budget with the gate left open: these nodes run in
 * the test's own process, whose resident size (other tests' nodes beside
 * them under --parallel) is no measure of theirs.
 */
const SMALL_SHARES = { ...memoryPlan(512 * MIB, "flag"), budget: 64 * 1024 * MIB };

async function memoryOf(url: string): Promise<MemoryHealth> {
  return ((await (await fetch(`${url}/healthz`)).json()) as { memory: MemoryHealth }).memory;
}

Deno.test("/healthz says the budget, its shares and what is resident; SQL workers run under their share", async () => {
  const plan = SMALL_SHARES;
  await withNode({ memory: plan }, async ({ url, serving }) => {
    const before = await memoryOf(url);
    const { resident, held: _held, atRest: _atRest, overBudgetAtRest: _over, idleTrim, ...shares } = before;
    assertEquals(shares, plan);
    assertEquals(
      idleTrim,
      { waitMs: 15_000, trims: 0, collections: 0 },
      "the idle trim waits 15 s and has not trimmed yet",
    );
    assert(resident.node > 20 * MIB, `node resident ${resident.node}`);
    assertEquals(resident.sqlWorkers, 0, "no worker before the first query");
    const res = await fetch(`${url}/projects/cities/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT count(*) AS n FROM records" }),
    });
    assertEquals(res.status, 200, await res.text());
    const pids = serving.node.sqlPids();
    assertEquals(pids.length, 1);
    const argv = (await Deno.readTextFile(`/proc/${pids[0]}/cmdline`)).split("\0");
    assertEquals(
      argv[argv.indexOf("--memory") + 1],
      `${plan.sqlWorker / MIB}MiB`,
      "DuckDB's memory_limit in the worker",
    );
    const after = await memoryOf(url);
    assert(after.resident.sqlWorkers > 20 * MIB, `workers resident ${after.resident.sqlWorkers}`);
  });
});

Deno.test("a budget under 1 GiB runs one SQL worker, and queries asked at once take turns on it; 1 GiB runs two", async () => {
  await withNode({ memory: SMALL_SHARES }, async ({ url, serving }) => {
    await serving.node.warmSql();
    assertEquals(serving.node.sqlPids().length, 1, "one worker process under a 512 MiB budget");
    const answers = await Promise.all(Array.from({ length: 3 }, (_, i) =>
      fetch(`${url}/projects/cities/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: `SELECT count(*) + ${i} AS n FROM records` }),
      }).then(async (res) => [res.status, Number((await res.json()).rows[0][0])])));
    assertEquals(answers.map(([status]) => status), [200, 200, 200]);
    assertEquals(answers.map(([, n]) => n - answers[0][1]), [0, 1, 2], "each query its own answer");
    assertEquals(serving.node.sqlPids().length, 1, "still one after queries asked at once");
  });
  const large = { ...memoryPlan(1024 * MIB, "flag"), budget: 64 * 1024 * MIB };
  await withNode({ memory: large }, async ({ serving }) => {
    await serving.node.warmSql();
    assertEquals(serving.node.sqlPids().length, 2, "two worker processes from a 1 GiB budget");
  });
});

Deno.test("exports made one at a time under a small budget: three asked at once all arrive whole", async () => {
  const plan = SMALL_SHARES;
  assertEquals(plan.exportsAtOnce, 1);
  await withNode({ memory: plan, exportCache: 0 }, async ({ url }) => {
    const got = await Promise.all([1, 2, 3].map(async () => {
      const res = await fetch(`${url}/projects/cities/export?version=2`);
      return {
        status: res.status,
        text: new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer()))),
      };
    }));
    assertEquals(got.map((g) => g.status), [200, 200, 200]);
    assertEquals(got.map((g) => g.text.trimEnd().split("\n").length), [600, 600, 600]);
    assertEquals(new Set(got.map((g) => g.text)).size, 1);
  });
});

Deno.test("a node over its budget at rest serves on: requests answered, /healthz and the log say what holds it", async () => {
  // A budget far under what any node holds at rest: waiting could never bring it under, so nothing is refused for it.
  const memory = { ...memoryPlan(256 * MIB, "flag"), budget: 8 * MIB };
  const lines: string[] = [];
  await withNode({ memory, logLines: (line) => lines.push(line) }, async ({ url, fixture }) => {
    for (const path of ["/projects/cities/data?limit=2", "/projects/cities/export?version=2"]) {
      const res = await fetch(`${url}${path}`);
      assertEquals(res.status, 200, path);
      await res.body?.cancel();
    }
    const query = await fetch(`${url}/projects/cities/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT count(*) AS n FROM records" }),
    });
    assertEquals(query.status, 200, await query.text());
    const health = await memoryOf(url);
    assertEquals(health.overBudgetAtRest, true);
    assert(health.atRest > 8 * MIB, `at rest ${health.atRest}`);
    assert(health.held.jsHeap > 0 && health.held.external >= 0 && health.held.pageCache >= 0, JSON.stringify(health));
    const warned = lines.filter((l) => /over its budget of 8 MiB: it serves on/.test(l));
    assertEquals(warned.length, 1, `told once:\n${lines.join("\n")}`);
    const part = fixture.v2.partPaths[0].split("/").at(-1);
    const bytes = await fetch(`${url}/parts/cities/${part}`);
    assertEquals(bytes.status, 200, "parts are streamed from disk");
    await bytes.body?.cancel();
    const metrics = await (await fetch(`${url}/metrics`)).text();
    assert(/^svc_memory_budget_bytes 8388608$/m.test(metrics), metrics);
    assertEquals(Number(/^svc_memory_refused_total (\d+)$/m.exec(metrics)?.[1]), 0, "none refused");
  });
});
