/**
 * A store in an S3-compatible bucket, against a real server (versitygw):
 * what a commit writes and in which order, what readers see of a version
 * whose manifest is not written yet, the journal read on from where the
 * last look ended, two writers racing for one version, parts leased into
 * the cache and footer images that read as the parts' own footers.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { objectSource, PartCache, S3Client } from "../../src/objectstore/mod.ts";
import {
  copyOf,
  type CopyTarget,
  journalKey,
  manifestKey,
  type ObjectStore,
  objectTarget,
  openObjectStore,
  type Version,
} from "../../src/store/mod.ts";
import { NodeError } from "../../src/errors/mod.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { startS3Server } from "../support/s3_server.ts";
import { citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import { until } from "../support/waiting.ts";

/** A client that notes the listings it asks for (the server answers them for real). */
class CountingClient extends S3Client {
  readonly listings: { prefix: string; startAfter?: string }[] = [];
  override listPage(prefix: string, options: Parameters<S3Client["listPage"]>[1] = {}) {
    this.listings.push({ prefix, startAfter: options.startAfter });
    return super.listPage(prefix, options);
  }
}

/** A copy of `slug` v`n` listing `parts` (digest and size; nothing checks that they exist). */
function copy(slug: string, n: number, parts: { sha256: string; bytes: number; records?: number }[]): Version {
  const made = copyOf(
    { project: slug, version: n, format: "parquet", parts, totals: { records: null, parts: parts.length } },
    { verified: false, taken: { pulledAt: "2026-11-28T00:00:00Z" } },
  );
  if ("reason" in made) throw new Error(made.reason);
  return made;
}

const sha = (n: number) => n.toString(16).padStart(64, "0");

interface Bucket {
  client: CountingClient;
  target: CopyTarget;
  store: ObjectStore;
  dir: string;
}

async function withBucket(fn: (b: Bucket) => Promise<void>): Promise<void> {
  const server = await startS3Server();
  const tmp = await tempDir();
  try {
    await server.bucket("store");
    const client = new CountingClient(server.config("store", "svc/"));
    const store = openObjectStore({ client, root: join(tmp.path, "cache"), cache: null, refreshMs: 60_000 });
    await fn({ client, target: objectTarget(new S3Client(server.config("store", "svc/"))), store, dir: tmp.path });
  } finally {
    await tmp.cleanup();
    await server.stop();
  }
}

Deno.test("a version is seen once its manifest is written, last: a journal object alone names a version not whole yet", async () => {
  await withBucket(async ({ client, target, store }) => {
    await target.writeProject("notes", '{"slug":"notes","title":"Notes"}\n');
    await target.commit(copy("notes", 1, [{ sha256: sha(1), bytes: 10, records: 1 }]));
    assertEquals((await store.latest("notes"))?.version, 1);
    assertEquals((await store.project("notes"))?.meta?.title, "Notes");

    // A writer stopped between its journal object and its manifest.
    await client.put(journalKey("notes", 2), new Uint8Array(0));
    const fresh = openObjectStore({ client, root: "/nowhere", cache: null });
    assertEquals((await fresh.latest("notes"))?.version, 1, "v2 is not whole: v1 is served");
    const project = await fresh.project("notes");
    assertEquals(project?.versions.newest, 1);
    assertEquals(project?.incomplete.map((i) => i.version), [2]);
    assertMatch(project!.incomplete[0].reason, /manifest\.json is not in the object store/);
    assertEquals(await fresh.version("notes", 2), null);

    // Its manifest arrives: the next looks serve it, without a restart.
    await target.commit(copy("notes", 2, [{ sha256: sha(1), bytes: 10, records: 1 }]));
    await until("v2 is served", async () => (await fresh.latest("notes"))?.version === 2, 10_000);
    assertEquals((await fresh.project("notes"))?.incomplete, []);
    const stored = await fresh.version("notes", 2);
    assertEquals(stored?.parts.map((p) => p.path), [`/nowhere/notes/parts/${sha(1)}.parquet`]);
  });
});

Deno.test("a reader reads the journal on from the last key it saw, one listing a look", async () => {
  await withBucket(async ({ client, target }) => {
    for (let n = 1; n <= 3; n++) await target.commit(copy("log", n, [{ sha256: sha(n), bytes: 1 }]));
    const store = openObjectStore({ client, root: "/nowhere", cache: null, refreshMs: 0 });
    assertEquals((await store.project("log"))?.versions.count, 3);
    const journal = () => client.listings.filter((l) => l.prefix === "log/index/versions/");
    assertEquals(journal().map((l) => l.startAfter), [undefined]);
    await target.commit(copy("log", 4, [{ sha256: sha(4), bytes: 1 }]));
    await until("v4 is listed", async () => (await store.project("log"))?.versions.newest === 4, 10_000);
    assertEquals(journal()[1].startAfter, journalKey("log", 3), "the second look starts after the last key seen");
    assertEquals((await store.project("log"))?.versions.runs, [[1, 4]]);
  });
});

Deno.test("two writers commit one version at once: one wins, the other is told; the same copy twice is taken once", async () => {
  await withBucket(async ({ target, store, client, dir: _dir }) => {
    const other = objectTarget(new S3Client(client.config));
    for (let n = 1; n <= 20; n++) {
      const mine = copy("race", n, [{ sha256: sha(2 * n), bytes: 5 }]);
      const theirs = copy("race", n, [{ sha256: sha(2 * n + 1), bytes: 6 }]);
      const results = await Promise.allSettled([target.commit(mine), other.commit(theirs)]);
      const won = results.filter((r) => r.status === "fulfilled").length;
      assertEquals(won, 1, `round ${n}: one writer wins`);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      assert(lost.reason instanceof NodeError && lost.reason.kind === "conflict", String(lost.reason));
      assertMatch(lost.reason.message, /race v\d+ was committed meanwhile by another writer, with other parts/);
      const winner = results[0].status === "fulfilled" ? mine : theirs;
      const held = JSON.parse(new TextDecoder().decode(await client.bytes(manifestKey("race", n))));
      assertEquals(held.parts, winner.layout.kind === "listed" ? winner.layout.parts.map((p) => p.entry) : null);
    }
    const same = copy("race", 21, [{ sha256: sha(99), bytes: 7 }]);
    const both = await Promise.allSettled([target.commit(same), other.commit(same)]);
    assertEquals(both.map((r) => r.status), ["fulfilled", "fulfilled"]);
    assertEquals((await store.latest("race"))?.version, 21);
  });
});

Deno.test("a version's parts leased into the cache are its verified parts, and footer images read as their footers", async () => {
  const server = await startS3Server();
  const tmp = await tempDir();
  const writer = new StoreWriter(join(tmp.path, "disk"));
  try {
    const client = await server.bucket("store", "svc/");
    const target = objectTarget(client);
    const written = [
      await writer.part("cities", { sql: citySql(0, 3000), rowGroupSize: 1000 }),
      await writer.part("cities", { sql: citySql(3000, 10) }),
    ];
    const parts = [];
    for (const part of written) {
      await target.placePart(
        "cities",
        part.sha256,
        await copyFile(part.path, join(tmp.path, `${part.sha256}.parquet`)),
      );
      parts.push({ sha256: part.sha256, bytes: part.bytes, records: part.records });
    }
    await target.commit(copy("cities", 1, parts));
    const root = join(tmp.path, "cache");
    const cache = await PartCache.open({ folder: root, maxBytes: 1 << 20, source: objectSource(client, () => "") });
    const store = openObjectStore({ client, root, cache });
    const version = (await store.latest("cities"))!;
    assertEquals(await cache.stats().parts, 0);

    const images = await store.footerPaths(version.parts);
    assertEquals(cache.stats().downloads, 0, "footers come without the parts");
    const release = await store.lease(version.parts);
    for (const [i, part] of version.parts.entries()) {
      assertEquals(part.path, join(root, "cities", "parts", `${part.sha256}.parquet`));
      assertEquals(await readFile(part.path), await readFile(written[i].path));
      const image = await lstat(images[i]);
      assertEquals(image.size, part.bytes, "an image has its part's size");
      assert(image.blocks * 512 < part.bytes || part.bytes < 16384, "and holds only its footer");
    }
    assertEquals(cache.stats().leased, 2);
    release();
    assertEquals(cache.stats().leased, 0);

    const db = await DuckDBInstance.create(":memory:");
    const c = await db.connect();
    try {
      const metadata = async (paths: string[]) =>
        JSON.stringify(
          (await c.runAndReadAll(
            `SELECT row_group_id, column_id, row_group_num_rows, stats_min_value, stats_max_value, stats_null_count ` +
              `FROM parquet_metadata([${
                paths.map((p) => `'${p}'`).join(",")
              }]) ORDER BY file_name, row_group_id, column_id`,
          )).getRowsJson(),
        );
      assertEquals(await metadata(images), await metadata(version.parts.map((p) => p.path)));
      const described = async (paths: string[]) =>
        JSON.stringify(
          (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet([${paths.map((p) => `'${p}'`).join(",")}])`))
            .getRowsJson(),
        );
      assertEquals(await described(images), await described(version.parts.map((p) => p.path)));
    } finally {
      c.closeSync();
      db.closeSync();
    }
    await assertRejects(() => store.lease([{ ...version.parts[0], path: "/elsewhere/x.parquet" }]), /not a part/);
  } finally {
    writer.close();
    await tmp.cleanup();
    await server.stop();
  }
});

async function copyFile(from: string, to: string): Promise<string> {
  await Deno.copyFile(from, to);
  return to;
}

/** A client that drops `If-None-Match` from its writes, as a server that ignores the header would. */
class IgnoringClient extends S3Client {
  override put(key: string, body: Uint8Array | string, options: Parameters<S3Client["put"]>[2] = {}) {
    return super.put(key, body, { ...options, ifNoneMatch: undefined });
  }
}

Deno.test("over a server that does not keep If-None-Match, writing is refused unless the prefix has a single writer", async () => {
  await withBucket(async ({ client }) => {
    const refused = objectTarget(new IgnoringClient(client.config));
    await assertRejects(
      () => refused.commit(copy("solo", 1, [{ sha256: sha(1), bytes: 1 }])),
      /ignores If-None-Match: \* .* refusing to write\. If this is the only process writing .* SVC_S3_SINGLE_WRITER=1/,
    );
    await assertRejects(() => refused.checkWrites(), /refusing to write/);
    assertEquals(await client.head(manifestKey("solo", 1)), null, "nothing was committed");
    const single = objectTarget(new IgnoringClient(client.config), { singleWriter: true });
    await single.commit(copy("solo", 1, [{ sha256: sha(1), bytes: 1 }]));
    assert(await client.head(manifestKey("solo", 1)));
  });
});
