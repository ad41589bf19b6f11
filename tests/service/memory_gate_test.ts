import { assert, assertEquals } from "../support/assert.ts";
import { memoryGate, WAITING_MOST } from "../../src/service/mod.ts";
import { NodeError } from "../../src/errors/mod.ts";
import { memoryPlan } from "../../src/settings/mod.ts";

const MIB = 1024 * 1024;
const memory = memoryPlan(512 * MIB, "flag");
const sql = { stats: () => ({ resident: 0, workers: 0 }) };

/** A gate over a node whose held bytes are whatever the test says. */
function gateAt(mib: number, waitMostMs = 5_000) {
  let held = mib * MIB;
  const gate = memoryGate({ memory, sql }, { measure: () => held, waitMostMs });
  return { gate, hold: (n: number) => (held = n * MIB) };
}

/** Resolves to "in", or to the error `admit` rejected with. */
function settled(p: Promise<void>): Promise<"in" | NodeError> {
  return p.then(() => "in" as const, (e) => e as NodeError);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("memory gate: under the budget a request goes in at once", async () => {
  const { gate } = gateAt(400);
  assertEquals(await settled(gate.admit()), "in");
  assertEquals([gate.waiting(), gate.refused(), gate.held()], [0, 0, 400 * MIB]);
});

Deno.test("memory gate: at the budget requests wait, and go in, first come first, once the node is under it", async () => {
  const { gate, hold } = gateAt(500);
  const order: string[] = [];
  const first = gate.admit().then(() => order.push("first"));
  const second = gate.admit().then(() => order.push("second"));
  await sleep(150);
  assertEquals([order, gate.waiting()], [[], 2]);
  hold(300);
  // Under the budget now, but two wait: a newcomer takes its turn behind them.
  const third = gate.admit().then(() => order.push("third"));
  await Promise.all([first, second, third]);
  assertEquals([order, gate.waiting(), gate.refused()], [["first", "second", "third"], 0, 0]);
});

Deno.test("memory gate: a request that waited its longest is refused 503 with Retry-After: 1", async () => {
  const { gate } = gateAt(500, 120);
  const started = performance.now();
  const got = await settled(gate.admit());
  assert(got instanceof NodeError, String(got));
  assertEquals([got.kind, got.status, got.headers["retry-after"]], ["unavailable", 503, "1"]);
  assert(/memory budget \(500 of 512 MiB held\)/.test(got.message), got.message);
  assert(performance.now() - started >= 110, "refused before it had waited");
  assertEquals([gate.waiting(), gate.refused()], [0, 1]);
});

Deno.test("memory gate: past the most that may wait, the next is refused at once and the rest keep waiting", async () => {
  const { gate, hold } = gateAt(500);
  const waiting = Array.from({ length: WAITING_MOST }, () => settled(gate.admit()));
  const next = await settled(gate.admit());
  assert(next instanceof NodeError && next.status === 503, String(next));
  assertEquals([gate.waiting(), gate.refused()], [WAITING_MOST, 1]);
  hold(100);
  assertEquals(new Set(await Promise.all(waiting)), new Set(["in"]));
  assertEquals(gate.waiting(), 0);
});

Deno.test("memory gate: a request whose client leaves while it waits leaves the line, not refused", async () => {
  const { gate } = gateAt(500, 400);
  const client = new AbortController();
  const waiting = settled(gate.admit(client.signal));
  const stays = settled(gate.admit());
  await sleep(50);
  assertEquals(gate.waiting(), 2);
  client.abort(new Error("the client left"));
  assertEquals(String(await waiting), "Error: the client left");
  assertEquals([gate.waiting(), gate.refused()], [1, 0]);
  const gone = new AbortController();
  gone.abort(new Error("gone before"));
  assertEquals(String(await settled(gate.admit(gone.signal))), "Error: gone before");
  assertEquals(gate.waiting(), 1);
  assert((await stays) instanceof NodeError, "the one left waits its time out");
});

Deno.test("memory gate: past 88% it collects when the heap or array buffers it may free are large, not for the page cache", () => {
  for (const [kept, collects] of [[95, false], [0, true]] as const) {
    let looks = 0;
    const gate = memoryGate({ memory, sql }, {
      measure: () => (looks++, 470 * MIB),
      javascript: () => ({ heapTotal: 10 * MIB, arrayBuffers: 100 * MIB }),
      kept: () => kept * MIB,
    });
    gate.held();
    assertEquals(looks, collects ? 2 : 1, `page cache of ${kept} MiB: ${collects ? "collects" : "does not"}`);
  }
});
