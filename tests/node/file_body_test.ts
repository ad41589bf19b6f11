import { open } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { fileBody } from "../../src/node/file_body.ts";

async function fileOf(bytes: Uint8Array): Promise<{ path: string; done: () => Promise<void> }> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "body.bin");
  await Deno.writeFile(path, bytes);
  return { path, done: () => Deno.remove(dir, { recursive: true }) };
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), at += p.length);
  return out;
}

const SOURCE = Uint8Array.from({ length: 700_000 }, (_, i) => (i * 31 + (i >> 9)) & 0xff);

Deno.test("a file body read with the reader's own buffer fills that buffer, range by range", async () => {
  const file = await fileOf(SOURCE);
  try {
    const reader = fileBody(await open(file.path), 1000, 600_999).getReader({ mode: "byob" });
    const got: Uint8Array[] = [];
    let room = new ArrayBuffer(100_000);
    while (true) {
      const { done, value } = await reader.read(new Uint8Array(room));
      if (done) break;
      got.push(value.slice());
      room = value.buffer as ArrayBuffer;
      assertEquals(room.byteLength, 100_000);
    }
    assertEquals(got.length, 6);
    assertEquals(joined(got), SOURCE.subarray(1000, 601_000));
  } finally {
    await file.done();
  }
});

Deno.test("a file body read chunk by chunk gives the range, in steps of 256 KiB", async () => {
  const file = await fileOf(SOURCE);
  try {
    const sizes: number[] = [];
    const got: Uint8Array[] = [];
    for await (const chunk of fileBody(await open(file.path), 0, SOURCE.length - 1)) {
      sizes.push(chunk.length);
      got.push(chunk);
    }
    assertEquals(sizes, [262_144, 262_144, 175_712]);
    assertEquals(joined(got), SOURCE);
  } finally {
    await file.done();
  }
});

Deno.test("a file body of a file cut short meanwhile errors rather than ending early", async () => {
  const file = await fileOf(SOURCE);
  try {
    const handle = await open(file.path);
    await Deno.truncate(file.path, 1000);
    const reader = fileBody(handle, 0, SOURCE.length - 1).getReader();
    const first = await reader.read();
    assertEquals(first.value?.length, 1000);
    const failed = await reader.read().then(() => null, (e: Error) => e.message);
    assertEquals(failed, "the file ended early");
  } finally {
    await file.done();
  }
});
