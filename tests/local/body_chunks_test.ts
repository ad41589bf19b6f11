import { assertEquals } from "../support/assert.ts";
import { bodyChunks } from "../../src/local/_body_chunks.ts";

function bytes(n: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff);
}

async function collect(body: ReadableStream<Uint8Array>): Promise<{ all: Uint8Array; reads: number }> {
  const parts: Uint8Array[] = [];
  let reads = 0;
  // Each chunk is copied at once: the generator reuses its buffer for the next read.
  for await (const chunk of bodyChunks(body)) {
    reads++;
    parts.push(chunk.slice());
  }
  const all = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return { all, reads };
}

Deno.test("bodyChunks reads a fetch body (a byte stream, read by a BYOB reader) whole and in order", async () => {
  const payload = bytes(3 * 1024 * 1024 + 17);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response(payload));
  try {
    const res = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    const { all } = await collect(res.body!);
    assertEquals(all, payload);
  } finally {
    await server.shutdown();
  }
});

Deno.test("bodyChunks reads a stream with no BYOB reader the default way", async () => {
  const payload = bytes(100_000);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(payload.slice(0, 40_000));
      c.enqueue(payload.slice(40_000));
      c.close();
    },
  });
  const { all, reads } = await collect(body);
  assertEquals(all, payload);
  assertEquals(reads, 2);
});

Deno.test("bodyChunks cancels the rest of a body when the loop is left early", async () => {
  let cancelled = false;
  const body = new ReadableStream({
    type: "bytes",
    pull(c) {
      c.enqueue(bytes(1024));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const _ of bodyChunks(body)) break;
  assertEquals(cancelled, true);
});
