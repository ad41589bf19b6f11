/**
 * A version's kept orders on disk: read back as written under their tag,
 * none under another tag, none for a version that is gone, none cut short.
 *
 * @module
 */
import { mkdir, truncate } from "node:fs/promises";
import { join } from "node:path";
import { orderFile, readOrder, writeOrder } from "../../src/store/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("a kept order reads back as written, under its own tag only, and is never made for a version gone", async () => {
  const dir = await tempDir();
  try {
    const order = new Uint32Array([3, 0, 2 ** 32 - 1, 1]);
    assertEquals(await writeOrder(dir.path, "notes", 1, "a asc x", order), false, "no v1 folder: nothing written");
    await mkdir(join(dir.path, "notes", "v1"), { recursive: true });
    assertEquals(await writeOrder(dir.path, "notes", 1, 'a "b" desc x', order), true);
    assertEquals(await readOrder(dir.path, "notes", 1, 'a "b" desc x'), order);
    assertEquals(await readOrder(dir.path, "notes", 1, "a asc x"), null, "another tag");
    await truncate(orderFile(dir.path, "notes", 1, 'a "b" desc x'), 20);
    assertEquals(await readOrder(dir.path, "notes", 1, 'a "b" desc x'), null, "cut short");
  } finally {
    await dir.cleanup();
  }
});
