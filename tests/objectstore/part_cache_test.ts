/**
 * The bounded part cache over a real S3-compatible server (versitygw):
 * misses download once and verified, hits come from the folder, the least
 * recently used part goes first, a leased part never, the bound holds under
 * concurrent readers, and its counters reach the Prometheus text.
 *
 * @module
 */
import { readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderFamilies } from "../../src/metrics/mod.ts";
import {
  objectSource,
  PartCache,
  type PartRef,
  type PartSource,
  type S3Client,
  sha256Hex,
} from "../../src/objectstore/mod.ts";
import { NodeError } from "../../src/errors/mod.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { startS3Server } from "../support/s3_server.ts";

interface Fixture {
  client: S3Client;
  folder: string;
  /** Calls made to the object store for parts. */
  gets: string[];
  source: PartSource;
  /** Stores `bytes` as a part; its reference. */
  store(bytes: Uint8Array): Promise<PartRef>;
}

async function withFixture(fn: (f: Fixture) => Promise<void>): Promise<void> {
  const server = await startS3Server();
  const folder = await Deno.makeTempDir({ prefix: "svc-part-cache-" });
  try {
    const client = await server.bucket("parts", "store/");
    const gets: string[] = [];
    const fromBucket = objectSource(client, (sha256) => `parts/${sha256}.parquet`);
    const source: PartSource = (sha256, size) => {
      gets.push(sha256);
      return fromBucket(sha256, size);
    };
    const store = async (bytes: Uint8Array) => {
      const sha256 = sha256Hex(bytes);
      await client.put(`parts/${sha256}.parquet`, bytes);
      return { sha256, size: bytes.length };
    };
    await fn({ client, folder, gets, source, store });
  } finally {
    await server.stop();
    await Deno.remove(folder, { recursive: true });
  }
}

function bytesOf(seed: number, size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (seed * 131 + i * 7) & 0xff);
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  // A file listed may be evicted before its stat: it then holds nothing.
  for (const name of await readdir(folder)) total += (await stat(join(folder, name)).catch(() => ({ size: 0 }))).size;
  return total;
}

Deno.test("a miss downloads the part into the folder, a hit reads it there, and /metrics counts both", async () => {
  await withFixture(async ({ folder, gets, source, store }) => {
    const part = await store(bytesOf(1, 5000));
    const cache = await PartCache.open({ folder, maxBytes: 100_000, source });
    const lease = await cache.lease(part);
    assertEquals(lease.path, join(folder, part.sha256));
    assertEquals(sha256Hex(await Deno.readFile(lease.path)), part.sha256);
    lease.release();
    lease.release(); // twice is once
    const again = await cache.withPart(part, (path) => Deno.readFile(path));
    assertEquals(again.length, 5000);
    assertEquals(gets.length, 1);
    const s = cache.stats();
    assertEquals([s.hits, s.misses, s.downloads, s.downloadedBytes, s.bytes, s.parts, s.leased], [
      1,
      1,
      1,
      5000,
      5000,
      1,
      0,
    ]);
    const text = renderFamilies(cache.families());
    for (
      const line of [
        "svc_part_cache_hits_total 1",
        "svc_part_cache_misses_total 1",
        "svc_part_cache_evictions_total 0",
        "svc_part_cache_bytes 5000",
        "svc_part_cache_max_bytes 100000",
      ]
    ) assert(text.includes(`\n${line}\n`), `${line} in\n${text}`);
    assertEquals((await readdir(folder)).sort(), [part.sha256]);
    // Debian's promtool (the fleet tests' too) finds nothing to say about the families.
    const promtool = new Deno.Command("promtool", {
      args: ["check", "metrics"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    })
      .spawn();
    const writer = promtool.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const checked = await promtool.output();
    const said = new TextDecoder().decode(checked.stdout) + new TextDecoder().decode(checked.stderr);
    assertEquals([checked.code, said.trim()], [0, ""]);
  });
});

Deno.test("readers missing the same part at once share one download", async () => {
  await withFixture(async ({ folder, gets, source, store }) => {
    const part = await store(bytesOf(2, 200_000));
    const cache = await PartCache.open({ folder, maxBytes: 1_000_000, source });
    const leases = await Promise.all(Array.from({ length: 8 }, () => cache.lease(part)));
    assertEquals(gets.length, 1);
    assertEquals(new Set(leases.map((l) => l.path)).size, 1);
    assertEquals([cache.stats().misses, cache.stats().downloads, cache.stats().leased], [8, 1, 1]);
    for (const l of leases) l.release();
    assertEquals(cache.stats().leased, 0);
  });
});

Deno.test("a download is verified by size and SHA-256 before it takes its name; nothing half written stays", async () => {
  await withFixture(async ({ client, folder, gets, source, store }) => {
    const cache = await PartCache.open({ folder, maxBytes: 100_000, source });
    // Bytes stored under another part's name: not tried again, since the bucket holds them wrong.
    const good = bytesOf(3, 1000);
    const claimed = sha256Hex(bytesOf(4, 1000));
    await client.put(`parts/${claimed}.parquet`, good);
    const corrupt = await assertRejects(() => cache.lease({ sha256: claimed, size: 1000 }), /hashes to/);
    assertEquals((corrupt as NodeError).kind, "internal");
    assertEquals(gets.length, 1);
    // A size that does not match: tried three times, then told.
    const part = await store(bytesOf(5, 1000));
    await assertRejects(() => cache.lease({ ...part, size: 1200 }), /came as 1000 of 1200 bytes/);
    assertEquals(gets.length, 4);
    // Not in the bucket at all: not-found, at once.
    const missing = await assertRejects(() => cache.lease({ sha256: "0".repeat(64), size: 10 }));
    assertEquals([(missing as NodeError).kind, gets.length], ["not-found", 5]);
    assertEquals(await readdir(folder), []);
    assertEquals([cache.stats().bytes, cache.stats().failures, cache.stats().downloads], [0, 3, 0]);
    // The good part still comes.
    await cache.withPart(part, () => {});
    assertEquals(await readdir(folder), [part.sha256]);
  });
});

Deno.test("the least recently used part goes first; a leased one never; a full cache of leased parts says busy", async () => {
  await withFixture(async ({ folder, source, store }) => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map((n) => store(bytesOf(10 + n, 1000))));
    const cache = await PartCache.open({ folder, maxBytes: 3000, source });
    for (const p of [a, b, c, a]) await cache.withPart(p, () => {}); // a used last of the three
    await cache.withPart(d, () => {});
    assertEquals((await readdir(folder)).sort(), [a, c, d].map((p) => p.sha256).sort()); // b went
    assertEquals(cache.stats().evictions, 1);
    const held = await Promise.all([a, c, d].map((p) => cache.lease(p)));
    const busy = await assertRejects(() => cache.lease(b));
    assertEquals([(busy as NodeError).kind, (busy as NodeError).headers["retry-after"]], ["busy", "1"]);
    for (const lease of held) assertEquals((await Deno.readFile(lease.path)).length, 1000); // all still there
    held[1].release(); // c
    await cache.withPart(b, () => {});
    assertEquals((await readdir(folder)).sort(), [a, b, d].map((p) => p.sha256).sort());
    held[0].release();
    held[2].release();
    const tooLarge = await assertRejects(
      () => cache.lease({ sha256: "f".repeat(64), size: 3001 }),
      /more than the part/,
    );
    assertEquals((tooLarge as NodeError).kind, "unavailable");
  });
});

Deno.test("the bound holds with many readers at once, downloads under way counted", async () => {
  await withFixture(async ({ folder, gets, source, store }) => {
    const parts = await Promise.all(Array.from({ length: 24 }, (_, i) => store(bytesOf(100 + i, 1000 + i * 10))));
    const max = 6000;
    const cache = await PartCache.open({ folder, maxBytes: max, source });
    let peak = 0;
    let busy = 0;
    const reader = async (n: number) => {
      for (let i = 0; i < 12; i++) {
        const part = parts[(n * 7 + i * 5) % parts.length];
        try {
          await cache.withPart(part, async (path) => {
            assertEquals(sha256Hex(await Deno.readFile(path)), part.sha256);
            peak = Math.max(peak, await folderBytes(folder), cache.stats().bytes);
          });
        } catch (e) {
          if (!(e instanceof NodeError && e.kind === "busy")) throw e;
          busy++;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, n) => reader(n)));
    assert(peak <= max, `peak ${peak} over ${max}`);
    const s = cache.stats();
    assertEquals([s.leased, s.hits + s.misses + busy >= 72, s.downloads, gets.length >= s.downloads], [
      0,
      true,
      gets.length,
      true,
    ]);
    assert(s.evictions > 0 && s.bytes <= max && (await folderBytes(folder)) === s.bytes);
  });
});

Deno.test("reopened, the cache keeps what an earlier run verified, drops its unfinished downloads, and honours a smaller bound", async () => {
  await withFixture(async ({ folder, gets, source, store }) => {
    const parts = await Promise.all([1, 2, 3].map((n) => store(bytesOf(20 + n, 1000))));
    const first = await PartCache.open({ folder, maxBytes: 10_000, source });
    for (const p of parts) await first.withPart(p, () => {});
    const now = Date.now() / 1000;
    for (const [i, p] of parts.entries()) await utimes(join(folder, p.sha256), now - 3 + i, now - 3 + i); // oldest first
    await writeFile(join(folder, `${parts[0].sha256}.abc123.partial`), "half");
    await writeFile(join(folder, "README"), "not a part: left alone");
    const again = await PartCache.open({ folder, maxBytes: 10_000, source });
    assertEquals([again.stats().parts, again.stats().bytes], [3, 3000]);
    await again.withPart(parts[1], () => {});
    assertEquals([again.stats().hits, gets.length], [1, 3]);
    assertEquals((await readdir(folder)).filter((n) => n.endsWith(".partial")), []);
    const smaller = await PartCache.open({ folder, maxBytes: 2000, source });
    assertEquals([smaller.stats().parts, smaller.stats().evictions], [2, 1]);
    assertEquals((await readdir(folder)).sort(), [parts[1].sha256, parts[2].sha256, "README"].sort());
    await assertRejects(() => PartCache.open({ folder, maxBytes: 0, source }), /positive number of bytes/);
  });
});

Deno.test("a download that stalls is given up and tried again; one that names its own folder lands there", async () => {
  await withFixture(async ({ folder, source, store }) => {
    const part = await store(bytesOf(7, 3000));
    let tries = 0;
    // The first try sends half the bytes and then nothing: the object store stalled mid-body.
    const stalling: PartSource = async (sha256, size, ref) => {
      if (++tries > 1) return await source(sha256, size, ref);
      return new ReadableStream({ start: (c) => c.enqueue(bytesOf(7, 3000).subarray(0, 1500)) });
    };
    const cache = await PartCache.open({ folder, maxBytes: 100_000, source: stalling, stallMs: 200 });
    const named = { ...part, name: "cities/parts/" + part.sha256 + ".parquet", key: `parts/${part.sha256}.parquet` };
    const started = performance.now();
    const lease = await cache.lease(named);
    assert(performance.now() - started >= 200, "the stalled try was waited for, once");
    assertEquals(tries, 2);
    assertEquals(lease.path, join(folder, "cities", "parts", `${part.sha256}.parquet`));
    assertEquals(sha256Hex(await Deno.readFile(lease.path)), part.sha256);
    lease.release();
    const reopened = await PartCache.open({ folder, maxBytes: 100_000, source });
    assertEquals(reopened.stats().parts, 1, "a part in its own folder is found again at start");
    const always = await PartCache.open({
      folder: await Deno.makeTempDir({ dir: folder }),
      maxBytes: 100_000,
      source: () => Promise.resolve(new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(10)) })),
      stallMs: 50,
      tries: 2,
    });
    await assertRejects(() => always.lease(part), /no byte came from the object store for 0\.05 s/);
    assertEquals(always.stats().failures, 1);
  });
});
