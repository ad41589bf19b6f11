import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { join } from "node:path";
import { Client, ValidationError } from "../../mod.ts";
import { loadBundle, pull, pullJsonLines, queryLocal, save } from "../../src/local/mod.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("@svc/cli/local: pull, save, load and a local query, each taking a Client or a store", async () => {
  const store = await tempDir();
  const scratch = await tempDir();
  try {
    await citiesStore(store.path);
    const origin = await startOrigin({ store: store.path, seed: "11".repeat(32) });
    try {
      const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
      const local = join(scratch.path, "store");
      const pulled = await pull(client, "cities", { store: local });
      assertEquals([pulled.version, pulled.records, pulled.downloaded], [2, 600, 3]);
      const answer = await queryLocal(local, "cities", { sql: "SELECT sum(population) AS p FROM records" });
      assertEquals(answer.rows, [[179_700_000]]);
      const e = await assertRejects(() => queryLocal(local, "cities", { sql: "DELETE FROM records" }));
      assert(e instanceof ValidationError, e.message);

      // save pulls what the store lacks first.
      const saved = await save(client, "cities", {
        store: join(scratch.path, "other"),
        version: 1,
        output: join(scratch.path, "c.svc"),
      });
      assertEquals([saved.version, saved.records, saved.file], [1, 250, join(scratch.path, "c.svc")]);
      const third = join(scratch.path, "third");
      const checked = await loadBundle(saved.file, third, { check: true });
      assertEquals([checked.written, checked.newParts], [false, 2]);
      const loaded = await loadBundle(saved.file, third);
      assertEquals(loaded.written, true);
      const counted = await queryLocal(third, "cities", { sql: "SELECT count(*) FROM records" });
      assertEquals(counted.rows, [[250]]);

      const lines = await pullJsonLines(client, "cities", { store: join(scratch.path, "jsonl"), version: 1 });
      assertEquals([lines.version, lines.records], [1, 250]);
    } finally {
      await origin.close();
    }
  } finally {
    await store.cleanup();
    await scratch.cleanup();
  }
});
