import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { downloadFolders, readParquet } from "../support/downloads.ts";
import { citiesStore } from "../support/store_fixture.ts";
import { withTypedStore } from "./_typed_store.ts";
import {
  closeIdleParquetWriters,
  idleParquetWriters,
  openReadEngine,
  viewParquet,
  viewShape,
  type ViewSpec,
  WRITER_FOLDER_PREFIX,
} from "../../src/parquet/mod.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const VIEW: ViewSpec = { filters: [{ column: "id", op: "lt", values: ["100"] }], search: null, sort: null };
const ALL = { offset: 0, limit: null };

async function writerFolders(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((n) => n.startsWith(WRITER_FOLDER_PREFIX));
}

async function partsOf(root: string, slug: string, version: number): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, slug, `v${version}`, "manifest.json"), "utf8"));
  return manifest.parts.map((p: { sha256: string }) => join(root, slug, "parts", `${p.sha256}.parquet`));
}

Deno.test("Parquet writers: one is kept warm between downloads, one more opened while it is busy, none left after", async () => {
  await closeIdleParquetWriters();
  const before = new Set(await writerFolders());
  await withTypedStore(async (root) => {
    await citiesStore(root);
    const engine = await openReadEngine(root);
    try {
      const parts = await partsOf(root, "cities", 2);
      const shape = await viewShape(engine, parts);
      const download = async () => (await readParquet(await viewBytes())).records;
      const viewBytes = async () => {
        const file = await viewParquet([root], parts, shape, VIEW, ALL);
        return new Uint8Array(await new Response(file.body).arrayBuffer());
      };
      const first = await download();
      assert(first.length > 0);
      assertEquals(idleParquetWriters(), 1, "the writer is kept for the next download");
      const kept = (await writerFolders()).filter((n) => !before.has(n));
      assertEquals(kept.length, 1);
      assertEquals(await download(), first, "the kept writer writes the same file");
      assertEquals((await writerFolders()).filter((n) => !before.has(n)), kept, "and no other was opened");
      const both = await Promise.all([download(), download(), download()]);
      assertEquals(both, [first, first, first], "downloads at once each have a writer");
      assertEquals(idleParquetWriters(), 1, "one is kept; the others closed");
      assertEquals((await writerFolders()).filter((n) => !before.has(n)).length, 1, "their folders went with them");
      assertEquals([...await downloadFolders()].filter((n) => n.startsWith(kept[0])), [], "no download's folder stays");
      // A write that fails does not leave its writer kept (its next download starts from a fresh one).
      const bad: ViewSpec = { filters: [{ column: "id", op: "eq", values: ["abc"] }], search: null, sort: null };
      await closeIdleParquetWriters();
      await assertRejects(() => viewParquet([root], parts, shape, bad, ALL));
      assertEquals(idleParquetWriters(), 0, "a writer whose statement failed is closed");
      assertEquals(await download(), first);
    } finally {
      await engine.close();
    }
  });
  await closeIdleParquetWriters();
  assertEquals(
    (await writerFolders()).filter((n) => !before.has(n)),
    [],
    "closing the kept writers removes their folders",
  );
});
