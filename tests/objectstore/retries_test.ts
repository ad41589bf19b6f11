/**
 * The client when the network fails between it and a real server (a
 * fault-injecting TCP proxy in front of versitygw): idempotent calls are
 * tried again after dropped connections and 503s, a conditional write whose
 * answer was lost finds its own bytes and counts as won (and still loses to
 * a rival's), a call that gets no answer gives up at its time limit.
 *
 * @module
 */
import { ObjectStoreError, S3Client } from "../../src/objectstore/mod.ts";
import { assertEquals, assertRejects } from "../support/assert.ts";
import { type Fault, type FaultProxy, startFaultProxy } from "../support/fault_proxy.ts";
import { type S3Server, startS3Server } from "../support/s3_server.ts";

async function withProxy(
  faults: (i: number) => Fault,
  fn: (direct: S3Client, proxied: S3Client, proxy: FaultProxy, server: S3Server) => Promise<void>,
): Promise<void> {
  const server = await startS3Server();
  const proxy = startFaultProxy(server.endpoint, faults);
  try {
    const direct = await server.bucket("net");
    const proxied = new S3Client({ ...server.config("net"), endpoint: proxy.endpoint });
    await fn(direct, proxied, proxy, server);
  } finally {
    await proxy.stop();
    await server.stop();
  }
}

Deno.test("a GET, a HEAD and a listing go through after two dropped connections", async () => {
  await withProxy((i) => i < 2 ? "drop" : "pass", async (direct, proxied, proxy) => {
    await direct.put("a.txt", "through");
    assertEquals(new TextDecoder().decode(await proxied.bytes("a.txt")), "through");
    assertEquals(proxy.connections() >= 3, true);
    assertEquals((await proxied.head("a.txt"))?.size, 7);
    assertEquals((await proxied.listPage("")).objects.map((o) => o.key), ["a.txt"]);
  });
});

Deno.test("503 SlowDown is tried again; past the tries it is an unavailable error with S3's code", async () => {
  await withProxy((i) => i < 2 ? "slowdown" : "pass", async (direct, proxied) => {
    await direct.put("b.txt", "later");
    assertEquals(new TextDecoder().decode(await proxied.bytes("b.txt")), "later");
  });
  await withProxy(() => "slowdown", async (_direct, proxied, proxy) => {
    const e = await assertRejects(() => proxied.bytes("b.txt"));
    assertEquals(e instanceof ObjectStoreError, true);
    assertEquals([(e as ObjectStoreError).kind, (e as ObjectStoreError).code], ["unavailable", "SlowDown"]);
    assertEquals(e.message, "object store: GET s3://net/b.txt: SlowDown: Please reduce your request rate.");
    assertEquals(proxy.connections(), 4); // the first try and three more
  });
});

Deno.test("a conditional write whose answer was lost is tried again and finds its own bytes: won", async () => {
  await withProxy((i) => i === 0 ? "swallow" : "pass", async (direct, proxied, proxy) => {
    const { etag } = await proxied.put("manifest.json", "mine", { ifNoneMatch: "*" });
    assertEquals(proxy.connections() >= 2, true); // the first answer was lost
    assertEquals(etag, (await direct.head("manifest.json"))?.etag);
    assertEquals(new TextDecoder().decode(await direct.bytes("manifest.json")), "mine");
  });
});

Deno.test("a conditional write that loses to a rival's bytes is a conflict even when tried again", async () => {
  await withProxy((i) => i === 0 ? "drop" : "pass", async (direct, proxied) => {
    await direct.put("manifest.json", "theirs");
    const e = await assertRejects(() => proxied.put("manifest.json", "mine", { ifNoneMatch: "*" }));
    assertEquals([(e as ObjectStoreError).kind, (e as ObjectStoreError).code], ["conflict", "PreconditionFailed"]);
    assertEquals(new TextDecoder().decode(await direct.bytes("manifest.json")), "theirs");
  });
});

Deno.test("a call that gets no answer gives up at its time limit, tried again as often as allowed", async () => {
  await withProxy(() => "hang", async (_direct, proxied, proxy) => {
    const impatient = new S3Client({ ...proxied.config, timeoutMs: 200, retries: 1 });
    const e = await assertRejects(() => impatient.head("c.txt"), /NetworkError: no answer within 200 ms/);
    assertEquals((e as ObjectStoreError).kind, "unavailable");
    assertEquals(proxy.connections(), 2);
  });
});
