import { assert, assertEquals } from "../support/assert.ts";
import { turns } from "../../src/service/mod.ts";
import { NodeError, statusOf } from "../../src/errors/mod.ts";

Deno.test("turns: at most atOnce hold one, the next go in order as each is handed on, once", async () => {
  const t = turns(2, 5_000, "things");
  const a = await t.take();
  const b = await t.take();
  const order: string[] = [];
  const c = t.take().then((done) => (order.push("c"), done));
  const d = t.take().then((done) => (order.push("d"), done));
  await new Promise((r) => setTimeout(r, 20));
  assertEquals(order, [], "no third turn while two are held");
  a();
  a(); // handing on twice gives away one turn only
  const doneC = await c;
  await new Promise((r) => setTimeout(r, 20));
  assertEquals(order, ["c"]);
  b();
  const doneD = await d;
  assertEquals(order, ["c", "d"]);
  doneC();
  doneD();
  // All handed back: two at once again without waiting.
  const e = await t.take();
  const f = await t.take();
  e();
  f();
});

Deno.test("turns: a wait past its limit is refused as busy (429), and leaves the queue", async () => {
  const t = turns(1, 50, "exports being made");
  const held = await t.take();
  const refused = await t.take().then(() => null, (e) => e);
  assert(refused instanceof NodeError, String(refused));
  assertEquals(statusOf(refused.kind), 429);
  assert(/too many exports being made at once \(1\)/.test(refused.message), refused.message);
  held();
  // The refused waiter is gone: the next taker gets the turn at once.
  const next = await Promise.race([t.take(), new Promise<null>((r) => setTimeout(() => r(null), 30))]);
  assert(next !== null, "the turn went to a waiter that had given up");
  next();
});

Deno.test("turns without a wait limit: the next waits as long as it takes, and goes in when one is handed on", async () => {
  const t = turns(1, null, "blocks being decoded");
  const done = await t.take();
  let second = false;
  const next = t.take().then((d) => (second = true, d));
  await new Promise((r) => setTimeout(r, 100));
  assertEquals(second, false, "still waiting while the turn is held");
  done();
  (await next)();
  assertEquals(second, true);
});
