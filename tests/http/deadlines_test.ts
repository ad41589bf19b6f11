import { assert, assertEquals } from "../support/assert.ts";
import { createDeadlines, deadlineTick } from "../../src/http/_deadlines.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("a deadline fires once, at most a tick late; disarmed or armed again, it does not fire early", async () => {
  const deadlines = createDeadlines(10);
  const fired: string[] = [];
  const a = deadlines.create();
  const b = deadlines.create();
  const c = deadlines.create();
  const started = Date.now();
  let firedAfter = 0;
  a.arm(60, () => {
    fired.push("a");
    firedAfter = Date.now() - started;
  });
  b.arm(30, () => fired.push("b"));
  b.disarm();
  c.arm(30, () => fired.push("c-early"));
  c.arm(200, () => fired.push("c"));
  await sleep(120);
  assertEquals(fired, ["a"]);
  assert(firedAfter >= 60 && firedAfter < 110, `fired after ${firedAfter} ms`);
  await sleep(150);
  assertEquals(fired, ["a", "c"], "each fires once; the disarmed one never");
  for (const d of [a, b, c]) d.drop();
});

Deno.test("deadlines keep no timer once every one is dropped (the test's leak check would fail otherwise)", async () => {
  const deadlines = createDeadlines(5);
  const d = deadlines.create();
  let fired = false;
  d.arm(10, () => (fired = true));
  d.drop();
  await sleep(30);
  assertEquals(fired, false, "a dropped deadline does not fire");
  const again = deadlines.create();
  again.arm(5, () => (fired = true));
  await sleep(40);
  assertEquals(fired, true, "a new one after the last was dropped is watched again");
  again.drop();
});

Deno.test("the tick is a tenth of the shortest timeout, within 5-250 ms", () => {
  assertEquals(deadlineTick([10_000, 5_000, 60_000]), 250);
  assertEquals(deadlineTick([400, 300, 400]), 30);
  assertEquals(deadlineTick([20]), 5);
});
