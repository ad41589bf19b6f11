import { assertEquals, type Json } from "../support/assert.ts";
import { appendFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { openStore, readIdentityIndex } from "../../src/store/mod.ts";
import { tempDir } from "../support/store_fixture.ts";

const NOTES = {
  slug: "notes",
  title: "Agent notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: { fields: [{ name: "id", type: "integer" }] },
};

async function post(url: string, path: string, body: unknown): Promise<Json> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await res.json();
}

Deno.test("the duplicate gate's identities are kept on disk and survive a restart and a torn append", async () => {
  const dir = await tempDir();
  try {
    let node = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null });
    await post(node.url, "/projects", NOTES);
    for (let b = 0; b < 3; b++) {
      const r = await post(node.url, "/projects/notes/contribute", { records: [{ id: b * 2 }, { id: b * 2 + 1 }] });
      assertEquals(r.status, "merged");
    }
    await node.shutdown();
    const index = await readIdentityIndex(dir.path, "notes");
    assertEquals(index?.identities.size, 6);
    const latest = await openStore(dir.path).latest("notes");
    assertEquals(index?.version, latest!.version, "the index covers the latest version");

    const bin = join(dir.path, "notes", "index", "identities.bin");
    await appendFile(bin, new Uint8Array(7)); // a crash in the middle of an append
    node = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null });
    try {
      const again = await post(node.url, "/projects/notes/contribute", { records: [{ id: 1 }, { id: 4 }] });
      assertEquals(again.verdict, { gate: "dedup", reason: "every record already exists in the dataset" });
      const more = await post(node.url, "/projects/notes/contribute", { records: [{ id: 5 }, { id: 6 }] });
      assertEquals([more.acceptedCount, more.verdict.droppedDuplicates], [1, 1]);
      assertEquals((await stat(bin)).size, 7 * 16, "the torn bytes were cut before appending");
    } finally {
      await node.shutdown();
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("identities rebuilt from parts whose records span many chunks: lines and characters cut between chunks are whole", async () => {
  const dir = await tempDir();
  const notes = {
    ...NOTES,
    schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
  };
  // About 1.5 MB of JSON lines in the part (the export reads its file in 1 MiB steps), each text with characters of
  // two, three and four bytes, so that a step ends inside a line and, for some, inside a character.
  const text = (id: number) => `${id} é ✓ 😀 `.repeat(1 + (id % 7)) + "x".repeat(900 + (id % 13));
  const batch = (b: number) => Array.from({ length: 500 }, (_, i) => ({ id: b * 500 + i, text: text(b * 500 + i) }));
  try {
    let node = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null });
    await post(node.url, "/projects", notes);
    for (let b = 0; b < 3; b++) {
      assertEquals((await post(node.url, "/projects/notes/contribute", { records: batch(b) })).status, "merged");
    }
    await node.shutdown();
    await rm(join(dir.path, "notes", "index", "identities.bin"));
    await rm(join(dir.path, "notes", "index", "identities.json"));
    node = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null });
    try {
      const again = await post(node.url, "/projects/notes/contribute", { records: batch(1).slice(200, 260) });
      assertEquals(again.verdict, { gate: "dedup", reason: "every record already exists in the dataset" });
      const more = await post(node.url, "/projects/notes/contribute", {
        records: [{ id: 1499, text: text(1499) }, { id: 1500, text: text(1500) }],
      });
      assertEquals([more.acceptedCount, more.verdict.droppedDuplicates], [1, 1]);
      assertEquals((await readIdentityIndex(dir.path, "notes"))?.identities.size, 1501);
    } finally {
      await node.shutdown();
    }
  } finally {
    await dir.cleanup();
  }
});
