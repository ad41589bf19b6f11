import { assert, assertEquals } from "../support/assert.ts";
import { gunzipSync } from "node:zlib";
import { withNode } from "../support/node.ts";
import { memoryPlan } from "../../src/settings/mod.ts";
import { WAIT_MOST_MS } from "../../src/service/mod.ts";
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
    const { resident, ...shares } = before;
    assertEquals(shares, plan);
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

Deno.test("at its budget costly requests wait their turn, then hear 503 with Retry-After; health, metrics and parts do not wait", async () => {
  // A budget far under what any node holds: every costly request meets the gate closed.
  const memory = { ...memoryPlan(256 * MIB, "flag"), budget: 8 * MIB };
  await withNode({ memory }, async ({ url, fixture }) => {
    for (const path of ["/projects/cities/data?limit=2", "/projects/cities/export?version=2"]) {
      const started = performance.now();
      const answer = fetch(`${url}${path}`);
      let waiting = "";
      for (let i = 0; i < 50 && waiting !== "1"; i++) {
        const metrics = await (await fetch(`${url}/metrics`)).text();
        waiting = /^svc_memory_waiting (\d+)$/m.exec(metrics)?.[1] ?? "";
      }
      assertEquals(waiting, "1", `${path} waits at the gate, and /metrics is answered meanwhile`);
      const res = await answer;
      const body = await res.json();
      assertEquals([res.status, res.headers.get("retry-after")], [503, "1"], path);
      assert(/the node is at its memory budget \(\d+ of 8 MiB held\)/.test(body.error), body.error);
      assert(performance.now() - started >= WAIT_MOST_MS - 50, `${path} was refused before it had waited`);
    }
    const query = await fetch(`${url}/projects/cities/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT 1" }),
    });
    assertEquals(query.status, 503, await query.text());
    assertEquals(await fetch(`${url}/healthz`).then(async (r) => [r.status, (await r.json()).ok]), [200, true]);
    const part = fixture.v2.partPaths[0].split("/").at(-1);
    const bytes = await fetch(`${url}/parts/cities/${part}`);
    assertEquals(bytes.status, 200, "parts are streamed from disk, not refused");
    await bytes.body?.cancel();
    const metrics = await (await fetch(`${url}/metrics`)).text();
    assert(/^svc_memory_budget_bytes 8388608$/m.test(metrics), metrics);
    const refused = Number(/^svc_memory_refused_total (\d+)$/m.exec(metrics)?.[1]);
    assert(refused >= 3, `refused ${refused}`);
    assert(Number(/^svc_memory_held_bytes (\d+)$/m.exec(metrics)?.[1]) > 8 * MIB);
  });
});
