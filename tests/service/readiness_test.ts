/**
 * Readiness decided from the follow status, the largest lag and the
 * node's life, without a server: each reason, the lag's boundary, and what
 * callers without the token are told.
 *
 * @module
 */
import { assertEquals } from "../support/assert.ts";
import { readinessOf } from "../../src/service/mod.ts";
import { createNode } from "../../src/node/mod.ts";
import type { FollowStatus } from "../../src/wire/mod.ts";
import { tempDir } from "../support/store_fixture.ts";

const NOW = Date.parse("2026-11-26T12:00:00.000Z");

function status(over: Partial<FollowStatus>): FollowStatus {
  return {
    version: 3,
    at: null,
    error: null,
    signature: "verified",
    from: "https://origin.example",
    syncedAt: null,
    behind: null,
    failures: 0,
    ...over,
  };
}

function stateOf(statuses: Record<string, FollowStatus> | null, readyMaxLagMs: number | null = null) {
  return {
    follow: statuses === null ? null : { status: () => statuses },
    readyMaxLagMs,
    lifecycle: { stopping: false },
    now: () => NOW,
  };
}

const AGO = (s: number) => new Date(NOW - s * 1000).toISOString();

Deno.test("readiness: a node following nothing is ready; a stopping one is not", () => {
  assertEquals(readinessOf(stateOf(null), false), { ready: true });
  assertEquals(readinessOf({ ...stateOf(null), lifecycle: { stopping: true } }, false), {
    ready: false,
    reason: "the node is stopping",
  });
});

Deno.test("readiness: every followed project needs a good sync since start, a version on disk is not enough", () => {
  const statuses = {
    cities: status({ syncedAt: AGO(5) }),
    rivers: status({ version: 7, error: "origin unreachable", failures: 2, at: AGO(1) }),
  };
  assertEquals(readinessOf(stateOf(statuses), true), {
    ready: false,
    reason: "rivers: first sync not done: last attempt failed: origin unreachable",
    projects: { rivers: "first sync not done: last attempt failed: origin unreachable" },
  });
  assertEquals(readinessOf(stateOf(statuses), false), { ready: false, reason: "1 of 2 followed projects not ready" });
  assertEquals(readinessOf(stateOf({ cities: statuses.cities }), false), { ready: true });
});

Deno.test("readiness: past the largest lag not ready, at it still ready; without one a failing source keeps it ready", () => {
  const failing = { cities: status({ syncedAt: AGO(600), error: "502 from upstream", failures: 9 }) };
  assertEquals(readinessOf(stateOf(failing), true), { ready: true });
  assertEquals(readinessOf(stateOf(failing, 600_000), true), { ready: true });
  assertEquals(readinessOf(stateOf(failing, 599_000), true), {
    ready: false,
    reason: "cities: last good sync 600 s ago, over the 599 s allowed (last attempt failed: 502 from upstream)",
    projects: { cities: "last good sync 600 s ago, over the 599 s allowed (last attempt failed: 502 from upstream)" },
  });
});

Deno.test("readiness: a node told to drain answers /readyz 503 while /healthz stays 200", async () => {
  const dir = await tempDir();
  const node = await createNode({ store: dir.path, host: "127.0.0.1", token: null });
  try {
    assertEquals((await node.handler(new Request("http://127.0.0.1:8686/readyz"))).status, 200);
    node.drain();
    const res = await node.handler(new Request("http://127.0.0.1:8686/readyz"));
    assertEquals([res.status, await res.json()], [503, { ready: false, reason: "the node is stopping" }]);
    assertEquals((await node.handler(new Request("http://127.0.0.1:8686/healthz"))).status, 200);
  } finally {
    await node.close();
    await dir.cleanup();
  }
});
