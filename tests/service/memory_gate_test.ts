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
  // The clock stands still: nobody waits out the gate meanwhile, however loaded the machine.
  let now = 0;
  let held = 500 * MIB;
  const gate = memoryGate({ memory, sql }, { measure: () => held, clock: () => now, waitMostMs: 400 });
  const client = new AbortController();
  const waiting = settled(gate.admit(client.signal));
  const stays = settled(gate.admit());
  assertEquals(gate.waiting(), 2);
  client.abort(new Error("the client left"));
  assertEquals(String(await waiting), "Error: the client left");
  assertEquals([gate.waiting(), gate.refused()], [1, 0]);
  const gone = new AbortController();
  gone.abort(new Error("gone before"));
  assertEquals(String(await settled(gate.admit(gone.signal))), "Error: gone before");
  assertEquals(gate.waiting(), 1);
  now = 500;
  assert((await stays) instanceof NodeError, "the one left waits its time out");
  held = 0;
});

Deno.test("memory gate: found over its budget at rest, the node sheds, says so once, and serves on", async () => {
  let held = 500 * MIB;
  let shed = 0;
  let now = 0; // moved by hand: a look stands 100 ms, and nobody waits out the gate however loaded the machine
  const warnings: string[] = [];
  const activity = { inFlight: 1 }; // the request asking
  const gate = memoryGate({ memory, sql }, {
    measure: () => held,
    clock: () => now,
    activity,
    shed: () => shed++,
    warn: (m) => warnings.push(m),
  });
  assertEquals(await settled(gate.admit()), "in", "nothing else at work: what is held is the node at rest");
  assertEquals([shed, gate.overAtRest(), gate.baseline()], [1, true, 500 * MIB]);
  assertEquals(warnings.length, 1);
  assert(/holds 500 MiB at rest, over its budget of 512 MiB: it serves on/.test(warnings[0]), warnings[0]);
  // Requests at work hold more: past the baseline's headroom a newcomer waits, until the node is at rest again.
  now += 200;
  held = 540 * MIB;
  activity.inFlight = 2;
  const order: string[] = [];
  const next = gate.admit().then(() => order.push("in"));
  await sleep(100); // ticks run, and find the node still busy
  now += 200;
  await sleep(100);
  assertEquals([order, gate.waiting()], [[], 1], "540 MiB is past 500 + 5% of the budget with another at work");
  activity.inFlight = 1; // that other request ended: the one waiting is all that is at work
  now += 200;
  await next;
  assertEquals([order, gate.refused(), shed], [["in"], 0, 1], "no second shed while it stays over");
  // Back under the budget at rest: said once, and the budget is the measure again.
  now += 200;
  held = 200 * MIB;
  assertEquals(await settled(gate.admit()), "in");
  assertEquals([gate.overAtRest(), warnings.length], [false, 2]);
  assert(/back under its memory budget at rest \(200 of 512 MiB\)/.test(warnings[1]), warnings[1]);
});

Deno.test("memory gate: without knowing what is at work, a node at its budget still refuses after waiting", async () => {
  let now = 0;
  const gate = memoryGate({ memory, sql }, { measure: () => 500 * MIB, clock: () => now, waitMostMs: 100 });
  const waiting = settled(gate.admit());
  now = 200;
  assert((await waiting) instanceof NodeError);
  assertEquals([gate.overAtRest(), gate.baseline()], [false, 0]);
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
