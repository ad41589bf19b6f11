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

Deno.test("a kept export answers single ranges (206, 416, If-Range); the first download streams 200 with the same ETag", async () => {
  await withNode({}, async ({ url }) => {
    const path = `${url}/projects/cities/export?version=2`;
    const first = await fetch(path, { headers: { range: "bytes=10-" } });
    assertEquals(first.status, 200, "nothing kept yet: the stream is the whole export, Range or not");
    assertEquals(first.headers.get("accept-ranges"), null, "a stream offers no ranges");
    const etag = first.headers.get("etag")!;
    assert(/^"cities-v2-[0-9a-f]{16}"$/.test(etag), etag);
    const whole = new Uint8Array(await first.arrayBuffer());

    const again = await fetch(path);
    assertEquals([again.status, again.headers.get("etag"), again.headers.get("accept-ranges")], [200, etag, "bytes"]);
    assertEquals(new Uint8Array(await again.arrayBuffer()), whole, "the kept file holds the bytes that were streamed");

    const tail = await fetch(path, { headers: { range: "bytes=100-", "if-range": etag } });
    assertEquals(tail.status, 206);
    assertEquals(tail.headers.get("content-range"), `bytes 100-${whole.length - 1}/${whole.length}`);
    assertEquals(tail.headers.get("content-length"), String(whole.length - 100));
    assertEquals(new Uint8Array(await tail.arrayBuffer()), whole.subarray(100));
    const mid = await fetch(path, { headers: { range: "bytes=5-9" } });
    assertEquals([mid.status, new Uint8Array(await mid.arrayBuffer())], [206, whole.subarray(5, 10)]);

    const past = await fetch(path, { headers: { range: `bytes=${whole.length}-` } });
    assertEquals([past.status, past.headers.get("content-range")], [416, `bytes */${whole.length}`]);
    assertEquals(await past.json(), { error: `range not satisfiable: the file has ${whole.length} bytes` });
    const other = await fetch(path, { headers: { range: "bytes=100-", "if-range": '"cities-v1-0000000000000000"' } });
    assertEquals(other.status, 200, "another export's tag gets the whole file");
    assertEquals(new Uint8Array(await other.arrayBuffer()), whole);
    const head = await fetch(path, { method: "HEAD", headers: { range: "bytes=100-" } });
    assertEquals([head.status, head.headers.get("content-length")], [206, String(whole.length - 100)]);

    const v1 = await fetch(`${url}/projects/cities/export?version=1`);
    assert(v1.headers.get("etag") !== etag, "each version has its own tag");
    await v1.body?.cancel();
  });
});

Deno.test("an export made with no cache is the same bytes and tag each time", async () => {
  await withNode({ exportCache: 0 }, async ({ url }) => {
    const path = `${url}/projects/cities/export?version=2`;
    const [a, b] = [await fetch(path), await fetch(path)];
    assertEquals(a.headers.get("etag"), b.headers.get("etag"));
    assertEquals(new Uint8Array(await a.arrayBuffer()), new Uint8Array(await b.arrayBuffer()));
  });
});

Deno.test("downloads cut at any point, cancelled or left hanging while the node shuts down, take nothing down with them", async () => {
  // Before sessions this took the test process down (SIGSEGV): a connection was closed under a running query.
  for (let round = 0; round < 2; round++) {
    let served = 0;
    await withNode({ exportCache: 0, limits: { shutdownGraceMs: 200 } }, async ({ url, store }) => {
      const w = new StoreWriter(store);
      await w.version("large", 1, { parts: [{ sql: citySql(0, 300_000) }, { sql: citySql(300_000, 100_000) }] });
      w.close();
      const jobs = Array.from({ length: 8 }, async (_, i) => {
        const res = await fetch(`${url}/projects/large/export?version=1`);
        const reader = res.body!.getReader();
        try {
          for (let n = 0; n < 1 + ((i * 5 + round) % 7); n++) if ((await reader.read()).done) break;
          served++;
          if (i % 3 !== 0) await reader.cancel(); // the others are left hanging for the shutdown to cut
        } catch { /* cut by the shutdown */ }
      });
      await Promise.all(jobs.filter((_, i) => i % 3 !== 0));
      await Promise.race([Promise.allSettled(jobs), new Promise((r) => setTimeout(r, 50))]);
    });
    assert(served >= 5, `the downloads were answered (${served})`);
  }
});
