import { assert, assertEquals, assertRejects, type Json } from "../support/assert.ts";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { loadBundle, saveBundle } from "../../src/local/bundle.ts";
import { Client } from "../../src/client/client.ts";
import { SignatureError } from "../../src/client/errors.ts";
import { pull } from "../../src/local/pull.ts";
import { startFollower } from "../../src/follow/mod.ts";
import { parseDocumentJson } from "../../src/wire/exact_json.ts";
import { startOrigin } from "../support/origin.ts";
import { trustFileText } from "../support/signing.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { canonicalStatement, signStatement } from "./canonical.ts";

const SEED = "77".repeat(32);
const MAX = "9223372036854775807";
/** Written as the origin writes it: exact integers beside floats, nested. */
const STATS = `{"maxId": ${MAX}, "minId": -9007199254740993, "ids": [[18446744073709551617, 1]], ` +
  `"mean": 1.5e-07, "e16": 1e16, "negZero": -0.0}`;

Deno.test("a manifest signed over integers beyond 2^53 verifies on pull, on a node following the puller, and on load; one changed by 1 does not", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore });
  try {
    // The manifest the origin serves for v2, given big integers and signed over their digits.
    const headers = { authorization: "Bearer agent-key" };
    const base = await (await fetch(`${origin.url}/projects/cities/manifest`, { headers })).json();
    const { urlExpiresAt, ...rest } = base;
    const unsigned = JSON.stringify({ ...rest, stats: "\u0001", urlExpiresAt }, null, 2).replace('"\\u0001"', STATS);
    const statement = canonicalStatement(origin.url, unsigned);
    assert(statement.includes(`"maxId":${MAX}`) && statement.includes('"mean":1.5e-7,"minId":-9007199254740993'));
    const signature = { origin: origin.url, kid: "", alg: "Ed25519", sig: signStatement(SEED, statement), chain: [] };
    const pinned = JSON.parse(await trustFileText(origin.url, SEED));
    signature.kid = pinned.origins[origin.url][0].kid;
    const served = unsigned.replace(/\n}$/, `,\n  "signature": ${JSON.stringify(signature)}\n}`);
    const trustFile = join(dir.path, "trust.json");
    await writeFile(trustFile, JSON.stringify(pinned));
    const trust = { trustFile, origin: origin.url, required: true };
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });

    // Changed by 1: JSON.parse could not tell the two apart; the signature can.
    const tampered = served.replace(MAX, "9223372036854775806");
    assertEquals(JSON.parse(tampered), JSON.parse(served));
    origin.fault("/projects/cities/manifest", { body: tampered });
    const refused = join(dir.path, "refused");
    const error = await assertRejects(
      () => pull(client, "cities", { store: refused, trust }),
      /cities v2 is untrusted: the signature does not verify/,
    );
    assert(error instanceof SignatureError);
    assertEquals((await readdir(join(refused, "cities")).catch(() => [])).filter((n) => n.startsWith("v")), []);

    // Pulled from the origin: verified, kept on disk with every digit.
    origin.fault("/projects/cities/manifest", { body: served });
    const puller = join(dir.path, "puller");
    const pulled = await pull(client, "cities", { store: puller, trust });
    assertEquals([pulled.version, pulled.signature], [2, "verified"]);
    const onDisk = await readFile(join(puller, "cities", "v2", "manifest.json"), "utf8");
    assert(onDisk.includes(`"maxId": ${MAX}`) && onDisk.includes('"ids": [\n      [\n        18446744073709551617'));
    assertEquals((parseDocumentJson(onDisk) as Json).stats.maxId, BigInt(MAX));

    // The puller serves it on; a node following the puller verifies it against the origin's key.
    const node = await serveNode({ store: puller, host: "127.0.0.1", port: 0, token: null });
    try {
      const answer = await (await fetch(`${node.url}/projects/cities/manifest`)).text();
      assert(answer.includes(`"maxId":${MAX}`) && answer.includes('"minId":-9007199254740993'), answer);
      const detail = await fetch(`${node.url}/projects/cities`);
      assertEquals(detail.status, 200);
      assert((await detail.text()).includes(`"maxId":${MAX}`), "the project detail carries the manifest too");

      const downstream = join(dir.path, "downstream");
      const follower = await startFollower({
        client: new Client({ baseUrl: node.url, apiKey: null, requireKey: false }),
        store: downstream,
        trust,
        slugs: ["cities"],
        intervalMs: 3_600_000,
        log: null,
      });
      try {
        await follower.syncNow();
        const status = follower.status().cities;
        assertEquals([status.version, status.signature, status.error], [2, "verified", null]);
      } finally {
        await follower.stop();
      }
      const followed = await readFile(join(downstream, "cities", "v2", "manifest.json"), "utf8");
      assertEquals((parseDocumentJson(followed) as Json).stats, (parseDocumentJson(onDisk) as Json).stats);
    } finally {
      await node.shutdown();
    }

    // Carried in a bundle: saved with every digit, loaded and verified.
    const bundle = join(dir.path, "cities-v2.svc");
    await saveBundle(puller, "cities", 2, bundle);
    const loaded = await loadBundle(bundle, join(dir.path, "loaded"), { trust });
    assertEquals([loaded.written, loaded.signature], [true, "verified"]);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
