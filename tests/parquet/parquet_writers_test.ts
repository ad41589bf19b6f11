import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { downloadFolders, ownWriterFolderPrefix, readParquet } from "../support/downloads.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { withTypedStore } from "./_typed_store.ts";
import {
  openReadEngine,
  type ParquetWriters,
  parquetWriters,
  type ReadEngine,
  viewParquet,
  viewShape,
  type ViewSpec,
} from "../../src/parquet/mod.ts";

const VIEW: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["100"] }], search: null, sort: null };
const BAD: ViewSpec = { filters: [{ column: "id", op: "eq", values: ["abc"] }], search: null, sort: null };
const ALL = { offset: 0, limit: null };

async function writerFolders(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith(ownWriterFolderPrefix()));
}

/** Downloads of the view `VIEW` of cities v2 in the store at `root`, through `writers` (or none). */
async function viewDownloads(root: string, engine: ReadEngine) {
  const manifest = JSON.parse(await readFile(join(root, "cities", "v2", "manifest.json"), "utf8"));
  const parts: string[] = manifest.parts.map((p: { sha256: string }) =>
    join(root, "cities", "parts", `${p.sha256}.parquet`)
  );
  const shape = await viewShape(engine, parts);
  return {
    records: async (writers?: ParquetWriters) => {
      const file = await viewParquet([root], parts, shape, VIEW, ALL, { writers });
      return (await readParquet(new Uint8Array(await new Response(file.body).arrayBuffer()))).records;
    },
    failing: (writers: ParquetWriters) => viewParquet([root], parts, shape, BAD, ALL, { writers }),
  };
}

Deno.test("Parquet writers: one is kept warm between downloads, one more opened while it is busy, none left after", async () => {
  const before = new Set(await writerFolders());
  const added = async () => (await writerFolders()).filter((n) => !before.has(n));
  const writers = parquetWriters();
  await withTypedStore(async (root) => {
    await citiesStore(root);
    const engine = await openReadEngine(root);
    try {
      const view = await viewDownloads(root, engine);
      const first = await view.records(writers);
      assert(first.length > 0);
      assertEquals(writers.kept(), 1, "the writer is kept for the next download");
      const kept = await added();
      assertEquals(kept.length, 1);
      assertEquals(await view.records(writers), first, "the kept writer writes the same file");
      assertEquals(await added(), kept, "and no other was opened");
      const atOnce = await Promise.all([view.records(writers), view.records(writers), view.records(writers)]);
      assertEquals(atOnce, [first, first, first], "downloads at once each have a writer");
      assertEquals(
        [writers.kept(), (await added()).length],
        [1, 1],
        "one is kept, the others closed with their folders",
      );
      assertEquals([...await downloadFolders()].filter((n) => n.startsWith(kept[0])), [], "no download's folder stays");
      // A write that fails does not leave its writer kept: the next download starts from a fresh one.
      await writers.closeIdle();
      await assertRejects(() => view.failing(writers));
      assertEquals(writers.kept(), 0, "a writer whose statement failed is closed");
      assertEquals(await view.records(writers), first);
      await writers.closeIdle();
      assertEquals(await added(), [], "closing the kept writers removes their folders");
      assertEquals(await view.records(), first, "without writers of its own, a download opens one");
      assertEquals(await added(), [], "and closes it after");
    } finally {
      await writers.closeIdle();
      await engine.close();
    }
  });
});

Deno.test("Parquet writers are locked as the read engine is: their folders only, settings fixed, caches on every connection", async () => {
  const store = await tempDir();
  const outside = await tempDir();
  const writers = parquetWriters();
  const writer = await writers.take([store.path], 64 * 1024 ** 2);
  try {
    const c = await writer.db.connect();
    try {
      const setting = async (name: string) =>
        String((await c.runAndReadAll(`SELECT current_setting('${name}')`)).getRows()[0][0]);
      // A connection other than the one that set it up: a session-scoped SET would not reach it.
      assertEquals(await setting("parquet_metadata_cache"), "true");
      assertEquals(await setting("enable_external_access"), "false");
      await c.run(`COPY (SELECT 1 AS n) TO '${writer.folder}/ok.parquet' (FORMAT parquet)`);
      await c.run(`COPY (SELECT 1 AS n) TO '${store.path}/in-store.csv' (FORMAT csv)`);
      const refused = [
        `COPY (SELECT 1 AS n) TO '${outside.path}/no.csv' (FORMAT csv)`,
        `SELECT * FROM read_csv('${writer.folder}/../../etc/passwd')`,
        `SET enable_external_access = true`,
        `SET allowed_directories = ['/']`,
      ];
      for (const sql of refused) {
        const error = await c.run(sql).then(() => null, (e) => String(e));
        assert(error !== null, `refused: ${sql}`);
      }
      assertEquals([...Deno.readDirSync(outside.path)], []);
    } finally {
      c.closeSync();
    }
  } finally {
    await writers.release(writer, false);
    await outside.cleanup();
    await store.cleanup();
  }
});
