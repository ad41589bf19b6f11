import { assert, assertEquals, assertMatch } from "../support/assert.ts";

/** The message `promise` rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("it did not reject");
}
import { openReadEngine } from "../../src/parquet/mod.ts";
import { jsonLines } from "../../src/parquet/export.ts";
import { openStore } from "../../src/store/mod.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const SLOW = "SELECT count(*)::INTEGER AS n FROM range(30000000) a, range(2) b WHERE (a.range + b.range) % 7 = 0";

Deno.test("a session runs its calls one after another; closing waits for the one under way and refuses the rest", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const session = await engine.session();
    const order: string[] = [];
    const slow = session.run(async (c) => {
      const n = (await c.runAndReadAll(SLOW)).getRows()[0][0];
      order.push("slow");
      return n;
    });
    const quick = session.run(async (c) => {
      order.push("quick");
      return (await c.runAndReadAll("SELECT 1")).getRows()[0][0];
    });
    await new Promise((r) => setTimeout(r, 5));
    const closed = session.close().then(() => order.push("closed"));
    const late = session.run(() => Promise.resolve("never"));
    assertEquals(await slow, 8571429, "the call under way finishes");
    assertMatch(await rejection(quick), /the connection is closed/);
    assertMatch(await rejection(late), /the connection is closed/);
    await closed;
    assertEquals(order, ["slow", "closed"]);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("a call asked for first takes the next free connection ahead of the calls already waiting", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path, { connections: 1 });
  try {
    const order: string[] = [];
    const call = (name: string, first?: boolean) =>
      engine.use(async (c) => {
        await c.run("SELECT 1");
        order.push(name);
      }, { first });
    const busy = engine.use(async (c) => {
      await c.run(SLOW);
      order.push("busy");
    });
    const waiting = [call("a"), call("b"), call("first", true), call("c")];
    await Promise.all([busy, ...waiting]);
    assertEquals(order, ["busy", "first", "a", "b", "c"]);
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("closing the engine waits for a query under way and for an export's block asked ahead", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("many", 1, { parts: [{ sql: "SELECT range AS id, 'r' || range AS name FROM range(200000)" }] });
    w.close();
    const engine = await openReadEngine(dir.path);
    const version = (await openStore(dir.path).version("many", 1))!;
    // Readers that go away while a block is being built, one asked ahead, or both.
    for (let round = 0; round < 6; round++) {
      const reader = jsonLines(engine, version).getReader();
      const first = await reader.read();
      assert(!first.done && first.value.length > 0, "a first block");
      const pending = round % 2 === 0 ? reader.read() : null;
      await reader.cancel();
      await pending;
    }
    const order: string[] = [];
    const reader = jsonLines(engine, version).getReader();
    await reader.read();
    const cancelled = reader.cancel();
    const inUse = engine.use(async (c) => {
      const n = (await c.runAndReadAll(SLOW)).getRows()[0][0];
      order.push("query done");
      return n;
    });
    await new Promise((r) => setTimeout(r, 5));
    await engine.close();
    order.push("engine closed");
    assertEquals(await inUse, 8571429);
    assertEquals(order, ["query done", "engine closed"], "the query under way finished before the engine closed");
    await cancelled;
    assertMatch(await rejection(engine.use(() => Promise.resolve(1))), /the read engine is closed/);
    assertMatch(await rejection(engine.session()), /the read engine is closed/);
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("handing free memory back leaves the engine and a query under way as they were", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const slow = engine.use(async (c) => (await c.runAndReadAll(SLOW)).getRows()[0][0]);
    await engine.returnFreeMemory();
    await engine.returnFreeMemory();
    assertEquals(await slow, 8571429);
    assertEquals(await engine.use(async (c) => (await c.runAndReadAll("SELECT 41 + 1")).getRows()[0][0]), 42);
    // The engine's settings stay locked: the scratch instance changed nothing of its own.
    assertMatch(
      await rejection(engine.use((c) => c.run("SET enable_external_access = true"))),
      /lock|configuration/i,
    );
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("the read engine writes files in its scratch folder, nowhere outside its folders, and removes it when closed", async () => {
  const dir = await tempDir();
  const outside = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    await engine.use((c) => c.run(`COPY (SELECT 1 AS n) TO '${engine.scratch}/ok.csv' (FORMAT csv)`));
    assertEquals(await Deno.readTextFile(`${engine.scratch}/ok.csv`), "n\n1\n");
    const target = `${outside.path}/no.csv`;
    const message = await rejection(engine.use((c) => c.run(`COPY (SELECT 1 AS n) TO '${target}' (FORMAT csv)`)));
    assertMatch(message, /Permission Error|not allowed|disabled/i);
    assertMatch(
      await rejection(engine.use((c) => c.run(`SELECT * FROM read_csv('${engine.scratch}/../../etc/passwd')`))),
      /Permission Error|not allowed|disabled|No files found/i,
    );
  } finally {
    await engine.close();
    await outside.cleanup();
    await dir.cleanup();
  }
  assert(!(await Deno.stat(engine.scratch).then(() => true, () => false)), "the scratch folder is gone");
});
