import { assert, assertEquals } from "../support/assert.ts";
import { fileStampOf, linkInfoOf, stampOf } from "../../src/runtime/mod.ts";

Deno.test("a folder's stamp changes when an entry is added, and is null where nothing is", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const before = stampOf(dir);
    assert(before !== null);
    assertEquals(stampOf(dir)?.key, before.key, "unchanged, the same stamp");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(dir, old, old);
    const aged = stampOf(dir)!;
    await Deno.writeTextFile(`${dir}/entry`, "x");
    const after = stampOf(dir)!;
    assert(after.key !== aged.key, "a new entry, a new stamp");
    assert(after.mtimeMs > aged.mtimeMs);
    assertEquals(stampOf(`${dir}/missing`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file's stamp has its size; a missing file, or a path through a file, has none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/manifest.json`, "{}");
    assertEquals(fileStampOf(`${dir}/manifest.json`)?.size, 2);
    assertEquals(fileStampOf(`${dir}/missing.json`), null);
    assertEquals(fileStampOf(`${dir}/manifest.json/inside`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("linkInfoOf: a file's size; a link is a link, not a file, a folder neither; nothing there, or a path through a file, is null", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/part`, "12345");
    await Deno.symlink(`${dir}/part`, `${dir}/link`);
    assertEquals(linkInfoOf(`${dir}/part`), { size: 5, isFile: true, isSymlink: false });
    assertEquals([linkInfoOf(`${dir}/link`)?.isFile, linkInfoOf(`${dir}/link`)?.isSymlink], [false, true]);
    assertEquals(linkInfoOf(dir)?.isFile, false);
    assertEquals(linkInfoOf(`${dir}/missing`), null);
    assertEquals(linkInfoOf(`${dir}/part/inside`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
