import { assert, assertEquals } from "../support/assert.ts";
import { plainAnswer, writeResponse } from "../../src/http/_response.ts";
import { byteSource } from "../support/byte_source.ts";

const OPTIONS = { head: false, keepAlive: true, minor: 1 as const, idleSeconds: 5 };

/** What a writer was given: the bytes (copied as they came), and each chunk as it was given. */
function recordingWrite() {
  const copies: Uint8Array[] = [];
  const given: Uint8Array[] = [];
  return {
    copies,
    given,
    write: (bytes: Uint8Array) => {
      copies.push(bytes.slice());
      given.push(bytes);
      return Promise.resolve();
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

function bodyOf(written: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(written);
  return written.subarray(text.indexOf("\r\n\r\n") + 4);
}

function pattern(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + (i >> 11)) & 0xff);
}

Deno.test("a byte stream of declared length is read into one buffer again and again, and arrives whole", async () => {
  const source = pattern(3 * 256 * 1024 + 1234);
  const { stream: body, served: reads } = byteSource(source, 100_000);
  const out = recordingWrite();
  const response = new Response(body, { headers: { "content-length": String(source.length) } });
  assertEquals(await writeResponse(out.write, response, OPTIONS), true);
  assertEquals(bodyOf(concat(out.copies)), source);
  const served = reads();
  assert(served >= 8, `${served} reads`);
  // Each chunk's memory was handed on to the next read once written (its buffer is detached by the
  // transfer): one buffer went round, rather than a new one per chunk left for the collector.
  assertEquals(out.given.length, served + 1);
  assert(out.given.slice(1).every((chunk) => chunk.buffer.byteLength === 0));
});

Deno.test("a byte stream that enqueues chunks larger than the buffer still arrives whole and in order", async () => {
  const source = pattern(600 * 1024);
  const body = new ReadableStream({
    type: "bytes",
    start(controller: ReadableByteStreamController) {
      controller.enqueue(source.slice(0, 500 * 1024));
      controller.enqueue(source.slice(500 * 1024));
      controller.close();
    },
  });
  const out = recordingWrite();
  await writeResponse(out.write, new Response(body, { headers: { "content-length": String(source.length) } }), OPTIONS);
  assertEquals(bodyOf(concat(out.copies)), source);
});

Deno.test("a plain stream of declared length is written chunk by chunk as before", async () => {
  const chunks = [pattern(70_000), pattern(10), pattern(90_000)];
  const out = recordingWrite();
  const response = new Response(ReadableStream.from(chunks), {
    headers: { "content-length": String(chunks.reduce((n, c) => n + c.length, 0)) },
  });
  await writeResponse(out.write, response, OPTIONS);
  assertEquals(bodyOf(concat(out.copies)), concat(chunks));
});

/** The body of a chunked answer, unframed; and how many chunks it came in. */
function unchunked(body: Uint8Array): { bytes: Uint8Array; chunks: number } {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    const line = new TextDecoder("latin1").decode(body.subarray(at, at + 16));
    const size = parseInt(line.slice(0, line.indexOf("\r\n")), 16);
    at += line.indexOf("\r\n") + 2;
    if (size === 0) return { bytes: concat(parts), chunks: parts.length };
    parts.push(body.subarray(at, at + size));
    assertEquals([body[at + size], body[at + size + 1]], [13, 10]);
    at += size + 2;
  }
}

Deno.test("a streamed byte body goes out in chunks read into one buffer, each framed and written where it lies", async () => {
  const source = pattern(5 * 256 * 1024 + 4321);
  const { stream: body, served: reads } = byteSource(source);
  const out = recordingWrite();
  assertEquals(await writeResponse(out.write, new Response(body), OPTIONS), true);
  const served = reads();
  const { bytes, chunks } = unchunked(bodyOf(concat(out.copies)));
  assertEquals(bytes, source);
  assertEquals(chunks, served);
  // The head with the first chunk, one write for each chunk after it, the last chunk: no size line or CRLF apart.
  assertEquals(out.given.length, served + 1);
  assert(out.given.slice(1, -1).every((chunk) => chunk.buffer.byteLength === 0), "the buffer went round");
});

Deno.test("small chunks of a streamed byte body gathered before the answer starts keep their bytes", async () => {
  const source = pattern(9 * 10_000);
  const { stream: body } = byteSource(source, 10_000);
  const out = recordingWrite();
  await writeResponse(out.write, new Response(body), OPTIONS);
  assertEquals(unchunked(bodyOf(concat(out.copies))).bytes, source);
  const short = new ReadableStream({
    type: "bytes",
    start(controller: ReadableByteStreamController) {
      for (let i = 0; i < 4; i++) controller.enqueue(source.slice(i * 10_000, (i + 1) * 10_000));
      controller.close();
    },
  });
  const whole = recordingWrite();
  await writeResponse(whole.write, new Response(short), OPTIONS);
  assertEquals(bodyOf(concat(whole.copies)), source.subarray(0, 40_000), "sent with its length");
});

Deno.test("a short answer is written as one array: its fields as latin1 bytes, ASCII or not, then its body", async () => {
  const body = new TextEncoder().encode('{"city":"Zürich"}');
  for (const value of ["attachment", 'attachment; filename="caf\u00e9.csv"']) {
    const { given } = recordingWrite();
    const headers = new Headers({ "content-type": "application/json", "content-disposition": value });
    await writeResponse((b) => (given.push(b), Promise.resolve()), new Response(body, { headers }), OPTIONS);
    const plain = plainAnswer(200, [...headers], body, OPTIONS);
    for (const written of [given, [plain]]) {
      assertEquals(written.length, 1, value);
      const text = new TextDecoder("latin1").decode(written[0]);
      const line = text.split("\r\n").find((l) => l.startsWith("content-disposition: "));
      assertEquals(line, `content-disposition: ${value}`, "one byte a character, as latin1");
      assertEquals(bodyOf(written[0]), body);
      assert(text.includes(`content-length: ${body.length}\r\n`));
    }
  }
});
