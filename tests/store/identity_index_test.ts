import { assertEquals, type Json } from "../support/assert.ts";
import { appendFile, stat } from "node:fs/promises";
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
