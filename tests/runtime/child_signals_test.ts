import { assertEquals } from "../support/assert.ts";
import { childSignals } from "../../src/runtime/mod.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("a launcher whose parent goes tells its child SIGHUP after the grace", async () => {
  const told: string[] = [];
  const signals = childSignals((s) => told.push(s), 30);
  signals.parentGone();
  assertEquals(told, [], "not at once: a signal that says why may follow");
  await sleep(60);
  assertEquals(told, ["SIGHUP"]);
});

Deno.test("a Ctrl-C seen after the parent's going reaches the child as SIGINT, and no SIGHUP follows", async () => {
  const told: string[] = [];
  const signals = childSignals((s) => told.push(s), 30);
  signals.parentGone();
  signals.pass("SIGINT");
  await sleep(60);
  assertEquals(told, ["SIGINT"]);
});

Deno.test("signals pass at once, in order; a child that has exited (kill throws) is no error", async () => {
  const told: string[] = [];
  const signals = childSignals((s) => {
    told.push(s);
    if (s === "SIGINT") throw new Error("the child has exited");
  }, 30);
  signals.pass("SIGTERM");
  signals.pass("SIGINT");
  signals.parentGone();
  await sleep(60);
  assertEquals(told, ["SIGTERM", "SIGINT"]);
});
