/**
 * `svc pull` and `svc load` into a bucket (`--store s3://bucket/prefix`),
 * against a real S3-compatible server (versitygw) and the test origin in
 * its own process: the same layout as a directory store, parts not taken
 * twice, and a node over the bucket serving what was taken.
 *
 * @module
 */
import { join } from "node:path";
import { S3Client } from "../../src/objectstore/mod.ts";
import { openObjectStore } from "../../src/store/mod.ts";
import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { runCli } from "../support/cli_process.ts";
import { spawnOrigin } from "../support/origin_process.ts";
import { startS3Server } from "../support/s3_server.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("svc pull and svc load take copies into a bucket as into a folder", async () => {
  const s3 = await startS3Server();
  const tmp = await tempDir();
  const originStore = join(tmp.path, "origin");
  await citiesStore(originStore);
  const origin = await spawnOrigin(originStore, "77".repeat(32));
  try {
    const client = await s3.bucket("copies", "pulled/");
    const env = { ...s3.env, SVC_TRUST_FILE: join(tmp.path, "trust.json") };
    const pull = [
      "pull",
      "cities",
      "--store",
      "s3://copies/pulled",
      "--base-url",
      origin.url,
      "--api-key",
      "agent-key",
      "--json",
    ];
    const first = await runCli([...pull, "--version", "1"], env);
    assertEquals(first.code, 0, first.stderr);
    assertEquals(JSON.parse(first.stdout).downloaded, 2);
    const second = await runCli(pull, env);
    assertEquals(second.code, 0, second.stderr);
    const took: Json = JSON.parse(second.stdout);
    // v2 shares no part with v1 here: its three are taken, none of v1's again.
    assertEquals([took.version, took.parts, took.downloaded], [2, 3, 3]);
    const again = await runCli(pull, env);
    assertEquals(JSON.parse(again.stdout).downloaded, 0, "a version held whole in the bucket costs nothing");

    const keys: string[] = [];
    for await (const object of client.list("cities/")) keys.push(object.key);
    assertEquals(keys.filter((k) => k.endsWith("manifest.json")), [
      "cities/v1/manifest.json",
      "cities/v2/manifest.json",
    ]);
    assertEquals(keys.filter((k) => k.includes("/parts/")).length, 5);
    assertEquals(keys.filter((k) => k.includes("/index/versions/")).length, 2);
    const store = openObjectStore({ client, root: "/nowhere", cache: null });
    assertEquals((await store.latest("cities"))?.manifest.totals.records, 600);

    const bundle = join(tmp.path, "cities.svc");
    const saved = await runCli(["save", "cities", "--version", "2", "--store", originStore, "-o", bundle]);
    assertEquals(saved.code, 0, saved.stderr);
    const loaded = await runCli(["load", bundle, "--store", "s3://copies/loaded"], env);
    assertEquals(loaded.code, 0, loaded.stderr);
    assertMatch(loaded.stdout, /cities v2, 600 records in 3 parts -> s3:\/\/copies\/loaded\/cities\/ \(3 new parts\)/);
    const other = openObjectStore({
      client: new S3Client(s3.config("copies", "loaded/")),
      root: "/nowhere",
      cache: null,
    });
    const v2 = await other.version("cities", 2);
    assertEquals(v2?.manifest.origin?.kind === "copy" && v2.manifest.origin.taken.loaded, true);
    assertEquals((await other.meta("cities"))?.title, "World cities");

    const missing = await runCli([
      "pull",
      "cities",
      "--store",
      "s3://copies/x",
      "--base-url",
      origin.url,
      "--api-key",
      "k",
    ]);
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /no credentials for s3:\/\/copies: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  } finally {
    await origin.stop();
    await s3.stop();
    await tmp.cleanup();
  }
});
