/**
 * The S3 client against a real S3-compatible server (versitygw, started per
 * test): writes and reads whole and by range, conditional writes and their
 * races, streamed uploads in parts, listings past 1,000 keys page by page,
 * pre-signed URLs fetched with plain fetch (and refused once expired), and
 * S3's errors as domain errors.
 *
 * @module
 */
import { conditionalWrites, ObjectStoreError, S3Client, sha256Hex } from "../../src/objectstore/mod.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { type S3Server, startS3Server } from "../support/s3_server.ts";

async function withServer(fn: (server: S3Server) => Promise<void>): Promise<void> {
  const server = await startS3Server();
  try {
    await fn(server);
  } finally {
    await server.stop();
  }
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** `size` bytes of a pattern that a shifted or cut copy does not match. */
function patterned(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
  return bytes;
}

Deno.test("writes, reads whole and by range, heads and deletes, all under the prefix", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("data", "svc/main/");
    const { etag } = await client.put("projects/a b/manifest.json", '{"version":1}', {
      contentType: "application/json",
    });
    assert(/^"[0-9a-f]{32}"$/.test(etag), etag);
    assertEquals(text(await client.bytes("projects/a b/manifest.json")), '{"version":1}');
    assertEquals(text(await client.bytes("projects/a b/manifest.json", { offset: 2, length: 7 })), "version");
    assertEquals(text(await client.bytes("projects/a b/manifest.json", { offset: 11 })), "1}");
    const range = await client.get("projects/a b/manifest.json", { offset: 1, length: 3 });
    assertEquals([range.length, range.size], [3, 13]);
    await range.body.cancel();
    const info = await client.head("projects/a b/manifest.json");
    assertEquals([info?.key, info?.size, info?.etag], ["projects/a b/manifest.json", 13, etag]);
    // The bytes are where the prefix says, as a plain file of the server's folder.
    assertEquals(await Deno.readTextFile(`${server.root}/data/svc/main/projects/a b/manifest.json`), '{"version":1}');
    await client.delete("projects/a b/manifest.json");
    assertEquals(await client.head("projects/a b/manifest.json"), null);
    await client.delete("projects/a b/manifest.json"); // deleting what is not there is no error
  });
});

Deno.test("keys with spaces, unicode, $, + and = travel signed and come back the same", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("odd");
    const keys = ["a b/c+d=e.txt", "ünï/cödé ሴ.txt", "x$y!'()*,;:@&.bin", "deep/a/b/c/d/e.txt"];
    for (const key of keys) await client.put(key, key);
    for (const key of keys) assertEquals(text(await client.bytes(key)), key);
    const listed = [];
    for await (const o of client.list("")) listed.push(o.key);
    assertEquals(listed, [...keys].sort());
  });
});

Deno.test("S3's errors are domain errors: code, message, call, and the kind that fits", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("errs");
    const missing = await assertRejects(() => client.bytes("nope.txt"));
    assert(missing instanceof ObjectStoreError);
    assertEquals([missing.kind, missing.status, missing.code, missing.s3Status], ["not-found", 404, "NoSuchKey", 404]);
    assertEquals(missing.message, "object store: GET s3://errs/nope.txt: NoSuchKey: The specified key does not exist.");
    await client.put("five.txt", "12345");
    const beyond = await assertRejects(() => client.bytes("five.txt", { offset: 10, length: 2 }));
    assertEquals((beyond as ObjectStoreError).kind, "range-not-satisfiable");
    const wrongSecret = new S3Client({
      ...client.config,
      credentials: { ...client.config.credentials, secretAccessKey: "not-the-secret" },
    });
    const denied = await assertRejects(() => wrongSecret.put("x.txt", "x"), /SignatureDoesNotMatch/);
    assertEquals([(denied as ObjectStoreError).kind, (denied as ObjectStoreError).s3Status], ["internal", 403]);
    const noBucket = new S3Client(server.config("no-such-bucket"));
    await assertRejects(() => noBucket.put("x.txt", "x"), /NoSuchBucket/);
    await assertRejects(() => client.put("a/../b", "x"), /InvalidKey/);
  });
});

Deno.test("the server keeps conditional writes: If-None-Match: * creates only, If-Match replaces only what was read", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("cond");
    assertEquals(await conditionalWrites(client, ".probe/cond"), { ifNoneMatch: true, ifMatch: true });
    assertEquals(await client.head(".probe/cond"), null);
    const first = await client.put("manifest.json", "v1", { ifNoneMatch: "*" });
    const again = await assertRejects(() => client.put("manifest.json", "v1'", { ifNoneMatch: "*" }));
    assertEquals([(again as ObjectStoreError).kind, (again as ObjectStoreError).code], [
      "conflict",
      "PreconditionFailed",
    ]);
    const second = await client.put("manifest.json", "v2", { ifMatch: first.etag });
    await assertRejects(() => client.put("manifest.json", "v3", { ifMatch: first.etag }), /PreconditionFailed/);
    assertEquals(text(await client.bytes("manifest.json")), "v2");
    await assertRejects(() => client.bytes("manifest.json", { ifMatch: first.etag }), /PreconditionFailed/);
    assertEquals(text(await client.bytes("manifest.json", { ifMatch: second.etag })), "v2");
  });
});

Deno.test("two writers race for one key: exactly one wins, the other is told, and the winner's bytes stay", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("race");
    const other = new S3Client(server.config("race"));
    for (let round = 0; round < 20; round++) {
      const key = `versions/${round}/manifest.json`;
      const body = (who: string) => `${who} ${"x".repeat(64 * 1024)}`; // big enough that both are mid-flight at once
      const results = await Promise.allSettled([
        client.put(key, body("one"), { ifNoneMatch: "*" }),
        other.put(key, body("two"), { ifNoneMatch: "*" }),
      ]);
      const won = results.flatMap((r, i) => r.status === "fulfilled" ? [i === 0 ? "one" : "two"] : []);
      assertEquals(won.length, 1, `round ${round}: ${JSON.stringify(results.map((r) => r.status))}`);
      const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      assertEquals((lost.reason as ObjectStoreError).kind, "conflict");
      assertEquals(text(await client.bytes(key)).split(" ")[0], won[0]);
    }
    // Replacing: both read the same version; only one replaces it.
    const base = await client.put("head.json", "base");
    const swaps = await Promise.allSettled([
      client.put("head.json", "from one", { ifMatch: base.etag }),
      other.put("head.json", "from two", { ifMatch: base.etag }),
    ]);
    assertEquals(swaps.filter((r) => r.status === "fulfilled").length, 1);
  });
});

Deno.test("a stream is uploaded in parts and appears whole; a small one goes in one PUT; none leaves parts behind", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("big");
    const bytes = patterned(13 * 1024 * 1024 + 12345);
    async function* chunks(of: Uint8Array, step = 100_003) {
      for (let i = 0; i < of.length; i += step) yield of.subarray(i, i + step);
    }
    const done = await client.upload("parts/big.parquet", chunks(bytes), { partSize: 5 * 1024 * 1024, concurrency: 2 });
    assertEquals(done.size, bytes.length);
    assert(done.etag.endsWith('-3"'), done.etag); // three parts
    assertEquals(sha256Hex(await client.bytes("parts/big.parquet")), sha256Hex(bytes));
    const small = await client.upload("parts/small.bin", chunks(bytes.subarray(0, 1000), 7));
    assertEquals([small.size, sha256Hex(await client.bytes("parts/small.bin"))], [
      1000,
      sha256Hex(bytes.subarray(0, 1000)),
    ]);
    assertEquals((await client.upload("parts/empty.bin", chunks(new Uint8Array(0)))).size, 0);
    assertEquals((await client.head("parts/empty.bin"))?.size, 0);
    // A conditional upload in parts loses to an object already there, and leaves no upload open.
    await assertRejects(
      () => client.upload("parts/big.parquet", chunks(bytes), { partSize: 5 * 1024 * 1024, ifNoneMatch: "*" }),
      /PreconditionFailed/,
    );
    // A source that fails halfway leaves nothing at the key.
    async function* failing() {
      yield* chunks(bytes.subarray(0, 6 * 1024 * 1024));
      throw new Error("the source broke");
    }
    await assertRejects(
      () => client.upload("parts/broken.bin", failing(), { partSize: 5 * 1024 * 1024 }),
      /source broke/,
    );
    assertEquals(await client.head("parts/broken.bin"), null);
    assertEquals(await client.openUploads(), []);
    // An upload left open (as by a writer that stalled or died) is listed, and can be aborted from elsewhere.
    let stalledNow!: () => void;
    const stalledThere = new Promise<void>((resolve) => stalledNow = resolve);
    let aborted!: () => void;
    const abortedNow = new Promise<void>((resolve) => aborted = resolve);
    async function* stalled() {
      yield* chunks(bytes.subarray(0, 11 * 1024 * 1024));
      // Asked for more: with one part at a time, parts 1 and 2 are stored and the upload waits.
      stalledNow();
      await abortedNow;
      yield* chunks(bytes.subarray(0, 6 * 1024 * 1024));
    }
    const stalling = client.upload("parts/stalled.bin", stalled(), { partSize: 5 * 1024 * 1024, concurrency: 1 });
    await stalledThere;
    const open = await client.openUploads("parts/");
    assertEquals(open.map((u) => u.key), ["parts/stalled.bin"]);
    await client.abortUpload(open[0]);
    aborted();
    await assertRejects(() => stalling, /NoSuchUpload/);
    assertEquals(await client.head("parts/stalled.bin"), null);
    assertEquals(await client.openUploads(), []);
  });
});

Deno.test("a listing of 1,050 keys comes page by page, in order, under the prefix only", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("many", "p/");
    const outside = new S3Client(server.config("many"));
    await outside.put("elsewhere/x", "x");
    const keys = Array.from({ length: 1050 }, (_, i) => `parts/${String(i).padStart(5, "0")}`);
    for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((k) => client.put(k, k)));
    const paged: string[] = [];
    let pages = 0;
    let token: string | undefined;
    do {
      const page = await client.listPage("parts/", { token, maxKeys: 300 });
      paged.push(...page.objects.map((o) => o.key));
      token = page.next;
      pages++;
    } while (token);
    assertEquals([pages, paged], [4, keys]);
    const all: string[] = [];
    for await (const o of client.list("")) all.push(o.key);
    assertEquals(all, keys); // past the server's 1,000 a page: two pages
    const first = await client.listPage("");
    assertEquals([first.objects.length, first.next !== undefined], [1000, true]);
    assertEquals(first.objects[0].size, 11);
    const folders = await client.listPage("", { delimiter: "/" });
    assertEquals([folders.objects, folders.prefixes], [[], ["parts/"]]);
  });
});

Deno.test("a pre-signed GET works with plain fetch, ranges included, and is refused once expired or altered", async () => {
  await withServer(async (server) => {
    const client = await server.bucket("shared", "tables/");
    await client.put("cities/part-0.parquet", "0123456789");
    const url = client.presignGet("cities/part-0.parquet", { expiresIn: 900 });
    assert(url.startsWith(`${server.endpoint}/shared/tables/cities/part-0.parquet?X-Amz-Algorithm=`), url);
    const whole = await fetch(url);
    assertEquals([whole.status, await whole.text()], [200, "0123456789"]);
    const ranged = await fetch(url, { headers: { range: "bytes=3-5" } });
    assertEquals([ranged.status, await ranged.text()], [206, "345"]);
    // Signed an hour ago for two hours: still good. Signed an hour ago for a minute: expired.
    const hourAgo = new Date(Date.now() - 3600_000);
    const stillGood = await fetch(client.presignGet("cities/part-0.parquet", { expiresIn: 7200, now: hourAgo }));
    assertEquals([stillGood.status, await stillGood.text()], [200, "0123456789"]);
    const expired = await fetch(client.presignGet("cities/part-0.parquet", { expiresIn: 60, now: hourAgo }));
    assertEquals(expired.status, 403);
    assert((await expired.text()).includes("expired"));
    const altered = await fetch(url.replace("part-0", "part-1"));
    assertEquals(altered.status, 403);
    await altered.body?.cancel();
  });
});
