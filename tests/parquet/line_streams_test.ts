/**
 * A stream of lines written by DuckDB to files (`_line_streams.ts`): the
 * next query starts as soon as the one before is done, not when the client
 * next asks, and one query ahead at most; a cancelled stream leaves no file.
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import { openReadEngine } from "../../src/parquet/mod.ts";
import { copyLines, type LineQuery, started } from "../../src/parquet/_line_streams.ts";

const FRAMING = { head: "", join: "\n", terminated: true, first: "", tail: "" };

/** Waits until `done()` holds, looking every few milliseconds, for 20 s at most. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 20_000; !done();) {
    if (Date.now() > end) throw new Error(`not within 20 s: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("line streams: the next query starts when the one before is done, without waiting for the reader", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const asked: (number | null)[] = [];
    // The first big enough that its first bytes are sent while DuckDB still writes it.
    const queries: LineQuery[] = [2_000_000, 20_000, 20_000].map((n, q) => ({
      select: `SELECT '${q}-' || i AS line FROM range(${n}) r(i)`,
      params: [],
    }));
    const body = copyLines(engine, (written) => {
      asked.push(written);
      return queries[asked.length - 1] ?? null;
    }, FRAMING);
    const reader = body.getReader();
    const first = await reader.read();
    assert(!first.done && first.value.length > 0);
    // Not read on: the second query still starts once the first has written its lines; the third waits.
    await until(() => asked.length === 2, "the second query started");
    assertEquals(asked, [null, 2_000_000]);
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(asked.length, 2, "one query ahead at most");
    let text = new TextDecoder().decode(first.value);
    for (let got = await reader.read(); !got.done; got = await reader.read()) {
      text += new TextDecoder().decode(got.value);
    }
    const lines = text.trimEnd().split("\n");
    assertEquals(lines.length, 2_040_000);
    assertEquals([lines[0], lines[1_999_999], lines[2_000_000], lines[2_039_999]], [
      "0-0",
      "0-1999999",
      "1-0",
      "2-19999",
    ]);
    assertEquals(asked, [null, 2_000_000, 20_000, 20_000]);
    assertEquals([...Deno.readDirSync(engine.scratch)], [], "every file removed once sent");
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("line streams: a query that cannot be made fails the stream, and cancelling one leaves no file", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    let calls = 0;
    const failing = copyLines(engine, () => {
      if (calls++ === 0) return { select: "SELECT 'a' || i AS line FROM range(5000) r(i)", params: [] };
      throw new RangeError("no such range");
    }, FRAMING);
    const error = await new Response(failing).text().then(() => null, (e) => e);
    assert(error instanceof RangeError, `the stream fails with what the next query's making threw: ${error}`);

    const cancelled = copyLines(
      engine,
      () => ({ select: "SELECT 'b' || i AS line FROM range(200000) r(i)", params: [] }),
      FRAMING,
    );
    const reader = cancelled.getReader();
    await reader.read();
    await reader.cancel();
    assertEquals([...Deno.readDirSync(engine.scratch)], [], "no file left by a cancelled stream");
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});

Deno.test("line streams: a reader that brings its own buffer has the lines read into it, framed as with any reader", async () => {
  const dir = await tempDir();
  const engine = await openReadEngine(dir.path);
  try {
    const array = { head: "[", join: ",\n", terminated: false, first: "\n", tail: "\n]" };
    for (const framing of [FRAMING, array]) {
      const queries = [30_000, 0, 25_000].map((n, q) => ({
        select: `SELECT '{"q":${q},"i":' || i || '}' AS line FROM range(${n}) r(i)`,
        params: [],
      }));
      let asked = 0;
      const lines = () => copyLines(engine, () => queries[asked++] ?? null, framing);
      const reader = (await started(lines())).getReader({ mode: "byob" });
      let room = new ArrayBuffer(64 * 1024);
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      for (;;) {
        const got = await reader.read(new Uint8Array(room));
        if (got.done) break;
        assert(got.value.byteOffset === 0 && got.value.buffer.byteLength === 64 * 1024, "read into the reader's room");
        chunks.push(got.value.slice() as Uint8Array<ArrayBuffer>);
        room = got.value.buffer as ArrayBuffer;
      }
      const text = new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
      asked = 0;
      assertEquals(text, await new Response(lines()).text(), "the same bytes as a plain reader's");
      const records = framing === FRAMING ? text.trimEnd().split("\n").map((l) => JSON.parse(l)) : JSON.parse(text);
      assertEquals(records.length, 55_000);
      assertEquals([records[0], records[29_999], records[30_000], records[54_999]], [
        { q: 0, i: 0 },
        { q: 0, i: 29_999 },
        { q: 2, i: 0 },
        { q: 2, i: 24_999 },
      ]);
    }
  } finally {
    await engine.close();
    await dir.cleanup();
  }
});
