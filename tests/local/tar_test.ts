import { assertEquals, assertRejects } from "../support/assert.ts";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readTar, TAR_END, tarHeader, tarPadding } from "../../src/local/tar.ts";
import { tempDir } from "../support/store_fixture.ts";

function archive(members: [string, Uint8Array][]): Uint8Array {
  const pieces: Uint8Array[] = [];
  for (const [name, body] of members) {
    pieces.push(tarHeader(name, body.length, 1764000000), body, tarPadding(body.length));
  }
  pieces.push(TAR_END);
  const out = new Uint8Array(pieces.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function* chunks(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function entries(bytes: Uint8Array, chunk = 777) {
  const out: [string, string][] = [];
  for await (const e of readTar(chunks(bytes, chunk))) {
    let text = "";
    for await (const c of e.body) text += new TextDecoder().decode(c);
    out.push([e.name, text]);
  }
  return out;
}

Deno.test("tar: what we write, GNU tar reads; what GNU tar writes, we read", async () => {
  const dir = await tempDir();
  try {
    const body = new TextEncoder().encode("x".repeat(1300));
    const bytes = archive([["svc-bundle.json", new TextEncoder().encode("{}")], ["parts/a.parquet", body]]);
    await writeFile(join(dir.path, "ours.tar"), bytes);
    const listed = await new Deno.Command("tar", { args: ["-tvf", join(dir.path, "ours.tar")], stdout: "piped" })
      .output();
    assertEquals(listed.code, 0);
    assertEquals(new TextDecoder().decode(listed.stdout).trim().split("\n").map((l) => l.split(/\s+/).at(-1)), [
      "svc-bundle.json",
      "parts/a.parquet",
    ]);
    await mkdir(join(dir.path, "src", "parts"), { recursive: true });
    await writeFile(join(dir.path, "src", "a.txt"), "hello");
    await writeFile(join(dir.path, "src", "parts", "b.txt"), "y".repeat(600));
    const made = await new Deno.Command("tar", {
      args: ["--format=ustar", "-cf", join(dir.path, "gnu.tar"), "-C", join(dir.path, "src"), "a.txt", "parts/b.txt"],
    }).output();
    assertEquals(made.code, 0);
    assertEquals(await entries(new Uint8Array(await readFile(join(dir.path, "gnu.tar")))), [
      ["a.txt", "hello"],
      ["parts/b.txt", "y".repeat(600)],
    ]);
    assertEquals((await entries(bytes, 1)).map(([n]) => n), ["svc-bundle.json", "parts/a.parquet"], "byte by byte");
  } finally {
    await dir.cleanup();
  }
});

Deno.test("tar: damaged headers, links and truncated archives are refused", async () => {
  const good = archive([["a.txt", new TextEncoder().encode("hello")]]);
  const flipped = good.slice();
  flipped[3] ^= 1;
  await assertRejects(() => entries(flipped), /damaged member header/);
  const link = good.slice();
  link[156] = "2".charCodeAt(0);
  const sum = [...link.subarray(0, 512)].map((b, i) => (i >= 148 && i < 156 ? 32 : b)).reduce((a, b) => a + b, 0);
  link.set(new TextEncoder().encode(sum.toString(8).padStart(6, "0") + "\0 "), 148);
  await assertRejects(() => entries(link), /not a regular file/);
  await assertRejects(() => entries(good.subarray(0, 600)), /ends/);
});
