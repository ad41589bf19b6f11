import { assertEquals } from "../support/assert.ts";
import { writeResponse } from "../../src/http/_response.ts";
import { bytesOf, bytesResponse } from "../../src/http/mod.ts";

const OPTIONS = { head: false, keepAlive: true, minor: 1 as const, idleSeconds: 5 };

async function written(response: Response, options = OPTIONS): Promise<{ writes: number; text: string }> {
  const parts: Uint8Array[] = [];
  await writeResponse((bytes) => (parts.push(bytes.slice()), Promise.resolve()), response, options);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (all.set(p, at), at += p.length);
  return { writes: parts.length, text: new TextDecoder().decode(all) };
}

Deno.test("bytes in hand go out in one write with their length, their body's stream never read", async () => {
  const body = `{"records":["é😀",${"1,".repeat(40_000)}1]}`;
  const response = bytesResponse(body, { status: 200, headers: { "content-type": "application/json" } });
  const { writes, text } = await written(response);
  assertEquals(writes, 1);
  const [head, sent] = text.split("\r\n\r\n");
  assertEquals(sent, body);
  assertEquals(head.includes(`\r\ncontent-length: ${new TextEncoder().encode(body).length}\r\n`), true, head);
  assertEquals(response.bodyUsed, false, "written from the bytes, not read from the stream");
});

Deno.test("a bytes response is an ordinary Response to everyone else; once read, or when its length is declared otherwise, it is streamed", async () => {
  const read = bytesResponse(new Uint8Array([104, 105]), { status: 201 });
  assertEquals(await read.text(), "hi");
  assertEquals(bytesOf(read), null, "read already");
  assertEquals(bytesOf(new Response("hi")), null, "not made here");
  const declared = bytesResponse("hello", { headers: { "content-length": "5" } });
  assertEquals((await written(declared)).text.endsWith("\r\n\r\nhello"), true);
  const head = await written(bytesResponse("hello", {}), { ...OPTIONS, head: true });
  assertEquals(head.text.endsWith("\r\n\r\n"), true, "a HEAD answer carries no body");
});

Deno.test("a bytes response keeps every Response method: bytes(), arrayBuffer(), clone()", async () => {
  assertEquals(await bytesResponse("hi", {}).bytes(), new Uint8Array([104, 105]));
  assertEquals(new Uint8Array(await bytesResponse("hi", {}).arrayBuffer()), new Uint8Array([104, 105]));
  const clone = bytesResponse("hi", { status: 202 }).clone();
  assertEquals([clone.status, await clone.text()], [202, "hi"]);
});
