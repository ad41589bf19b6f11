/**
 * A body passed on (`relay`): a byte source is read into the reader's own
 * buffer; a source's chunks that it goes on using are copied, not taken;
 * its first read comes first; `settled` is called when the source ends,
 * fails, or has stopped after a cancel.
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import { relay } from "../../src/http/relay.ts";
import { byteSource } from "../support/byte_source.ts";

function pattern(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 13 + (i >> 9)) & 0xff);
}

async function readAll(stream: ReadableStream<Uint8Array>, room?: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  if (room === undefined) {
    for await (const chunk of stream) parts.push(chunk.slice());
  } else {
    const reader = stream.getReader({ mode: "byob" });
    let buffer = new ArrayBuffer(room);
    for (;;) {
      const got = await reader.read(new Uint8Array(buffer));
      if (got.done) break;
      parts.push(got.value.slice());
      buffer = got.value.buffer as ArrayBuffer;
    }
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

Deno.test("relay: a byte source is read into the reader's own buffer, and arrives whole", async () => {
  const bytes = pattern(300_000);
  const { stream, sizes } = byteSource(bytes);
  let settled = 0;
  const body = relay(stream, { settled: () => settled++ });
  assertEquals(await readAll(body, 40_000), bytes);
  assert(sizes.length >= 8 && sizes.every((n) => n === 40_000), `the source was given ${sizes.join(", ")}`);
  assertEquals(settled, 1);
});

/** Like a compressor: each chunk a view of one output buffer, written into again after it is passed on. */
function reusingSource(): { stream: ReadableStream<Uint8Array>; shared: Uint8Array; expected: Uint8Array[] } {
  const shared = new Uint8Array(64 * 1024);
  const expected: Uint8Array[] = [];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (expected.length === 5) return controller.close();
      shared.fill(expected.length + 1);
      const chunk = shared.subarray(100 * expected.length, 100 * expected.length + 5_000);
      expected.push(chunk.slice());
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, shared, expected };
}

Deno.test("relay: chunks a source goes on using are copied on, not taken from it", async () => {
  for (const room of [undefined, 2_000]) {
    const { stream, shared, expected } = reusingSource();
    const got = await readAll(relay(stream), room);
    assertEquals(shared.buffer.byteLength, 64 * 1024, "the source's buffer is still its own");
    assertEquals(got.length, 25_000);
    assertEquals(got, await readAll(ReadableStream.from(expected)));
  }
});

Deno.test("relay: a first read made already comes first; an end made already ends it", async () => {
  const rest = byteSource(pattern(1_000)).stream;
  const first = { done: false as const, value: new TextEncoder().encode("head:") };
  const got = new TextDecoder().decode(await readAll(relay(rest, { first })));
  assertEquals(got.slice(0, 5), "head:");
  assertEquals(got.length, 1_005);
  let settled = 0;
  const ended = relay(new ReadableStream(), { first: { done: true, value: undefined }, settled: () => settled++ });
  assertEquals(await readAll(ended), new Uint8Array());
  assertEquals(settled, 1);
});

Deno.test("relay: settled when the source fails, and after it has stopped when cancelled", async () => {
  let settled = 0;
  const failing = new ReadableStream<Uint8Array>({
    pull: () => Promise.reject(new Error("the part went away")),
  });
  const failed = await readAll(relay(failing, { settled: () => settled++ })).then(() => null, (e) => e);
  assert(failed instanceof Error && failed.message === "the part went away", String(failed));
  assertEquals(settled, 1);
  const order: string[] = [];
  const slow = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new Uint8Array(10)),
    cancel: async () => {
      await new Promise((r) => setTimeout(r, 30));
      order.push("source stopped");
    },
  });
  const body = relay(slow, { settled: () => order.push("settled") });
  const reader = body.getReader();
  await reader.read();
  await reader.cancel("gone");
  assertEquals(order, ["source stopped", "settled"]);
});

Deno.test("relay: empty chunks, first or later, are passed over and the body still ends", async () => {
  const texts = ["", "a", "", "", "bc", ""];
  for (const room of [undefined, 16]) {
    for (const first of [undefined, { done: false as const, value: new Uint8Array() }]) {
      let settled = 0;
      const source = ReadableStream.from(texts.map((t) => new TextEncoder().encode(t)));
      const body = relay(source, { first, settled: () => settled++ });
      const got = await Promise.race([
        readAll(body, room),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the body stalled")), 5_000)),
      ]);
      assertEquals(new TextDecoder().decode(got), "abc");
      assertEquals(settled, 1);
    }
  }
});
