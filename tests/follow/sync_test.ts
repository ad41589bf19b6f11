/**
 * What following costs at the origin, counted there: the project list each
 * round (no egress), a manifest only when a version is new, and in it URLs
 * only for the parts not held (the parts the origin counts as egress).
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { Client } from "../../src/client/client.ts";
import { startFollower } from "../../src/follow/mod.ts";
import { writeTrustFile } from "../../src/trust/trust_file.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

const ROUNDS = 5;

Deno.test("follow: unchanged rounds ask for no manifest; a new version with one new part sends one part URL", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: "44".repeat(32) });
  const writer = new StoreWriter(originStore);
  const trustFile = join(dir.path, "trust.json");
  const key = origin.app!.current()!;
  await writeTrustFile(trustFile, {
    origins: {
      [origin.url]: [{ kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status: "current", addedAt: "t" }],
    },
  });
  const follower = await startFollower({
    client: new Client({ baseUrl: origin.url, apiKey: "agent-key" }),
    store: join(dir.path, "node"),
    trust: { trustFile, origin: origin.url, required: true },
    slugs: ["cities"],
    intervalMs: 3_600_000,
    log: null,
  });
  const manifests = origin.app!.manifests;
  /** Runs `n` rounds; returns what they asked of the origin, keys aside. */
  const rounds = async (n: number) => {
    const mark = origin.seen.length;
    for (let i = 0; i < n; i++) await follower.syncNow();
    return origin.seen.slice(mark).map((s) => `${s.method} ${s.path.split("?")[0]}`)
      .filter((p) => p !== "GET /.well-known/svc-keys");
  };
  try {
    await rounds(1);
    assertEquals(follower.status().cities.version, 2);
    assertEquals(manifests.length, 1, "v2 was new: one manifest");
    assertEquals([manifests[0].withUrl, manifests[0].have], [3, 0], "nothing was held: every part with its URL");

    const quiet = await rounds(ROUNDS);
    assertEquals(quiet, Array(ROUNDS).fill("GET /projects"), "one list a round, nothing more");
    assertEquals(manifests.length, 1, `no manifest over ${ROUNDS} unchanged rounds`);
    const still = follower.status().cities;
    assertEquals([still.version, still.error, still.signature, still.behind], [2, null, "verified", 0]);

    const [added] = await writer.extend("cities", 2, 3, [{ sql: citySql(600, 40) }]);
    const newer = await rounds(1);
    assertEquals(manifests.length, 2);
    assertEquals(manifests[1], { slug: "cities", version: 3, parts: 4, withUrl: 1, have: 3 }, "one part URL: egress 1");
    assertEquals(newer.filter((p) => p.startsWith("GET /parts/")), [`GET /parts/cities/${added}.parquet`]);
    const taken = follower.status().cities;
    assertEquals([taken.version, taken.error, taken.signature, taken.behind], [3, null, "verified", 0]);

    assert((await rounds(ROUNDS)).every((p) => p === "GET /projects"));
    assertEquals(manifests.length, 2, "and none again once v3 is held");
    assertEquals(manifests.reduce((a, m) => a + m.withUrl, 0), 4, "egress over all rounds: 3 parts, then 1");
  } finally {
    await follower.stop();
    writer.close();
    await origin.close();
    await dir.cleanup();
  }
});
