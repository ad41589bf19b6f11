import { assert, assertEquals } from "../support/assert.ts";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { withNode } from "../support/node.ts";
import { citySql, StoreWriter } from "../support/store_fixture.ts";

async function download(url: string): Promise<{ res: Response; lines: string[] }> {
  const res = await fetch(url);
  const lines = new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer()))).trimEnd().split("\n");
  return { res, lines };
}

Deno.test("a finished export is kept in the store and served again as a file", async () => {
  await withNode({}, async ({ url, store }) => {
    const first = await download(`${url}/projects/cities/export?version=2`);
    const kept = await readdir(join(store, "cities", "exports"));
    assertEquals(kept.length, 1);
    assert(/^v2-[0-9a-f]{16}\.jsonl\.gz$/.test(kept[0]), kept[0]);
    const again = await download(`${url}/projects/cities/export?version=2`);
    assert(Number(again.res.headers.get("content-length")) > 0, "the second is a file of known size");
    assertEquals(again.lines, first.lines);
    assertEquals(again.lines.length, 600);
    const head = await fetch(`${url}/projects/cities/export?version=2`, { method: "HEAD" });
    assertEquals(head.headers.get("content-length"), again.res.headers.get("content-length"));
    const v1 = await download(`${url}/projects/cities/export?version=1`);
    assertEquals(v1.lines.length, 250, "each version has its own file");
  });
});

Deno.test("a download cancelled halfway leaves no file; a store that cannot keep it still exports", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("large", 1, { parts: [{ sql: citySql(0, 400_000) }] });
    w.close();
    const res = await fetch(`${url}/projects/large/export?version=1`);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 500));
    const left = await readdir(join(store, "large", "exports")).catch(() => []);
    assertEquals(left.filter((f) => f.endsWith(".jsonl.gz")), [], "nothing finished is kept from a cut download");
    assertEquals(left.filter((f) => f.includes(".tmp-")), [], "no temporary file is left");

    await writeFile(join(store, "cities", "exports"), "a file where the exports folder would go");
    const { lines } = await download(`${url}/projects/cities/export?version=1`);
    assertEquals(lines.length, 250, "the export streams although it cannot be kept");
  });
});
