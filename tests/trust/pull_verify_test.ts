import { assertEquals, assertRejects, type Json } from "../support/assert.ts";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "../../src/client/client.ts";
import { SignatureError } from "../../src/client/errors.ts";
import { pull } from "../../src/local/pull.ts";
import { writeTrustFile } from "../../src/trust/trust_file.ts";
import { withNode } from "../support/node.ts";
import { endorse, signingKey, signManifest } from "../support/signing.ts";
import { citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import vectors from "./vectors.json" with { type: "json" };

const ORIGIN = "https://origin.example";

/** Signs version `n` of `slug` as the node publishes it, and stores the signature in its manifest on disk. */
async function signOnDisk(url: string, store: string, slug: string, n: number, sign: (m: Json) => Promise<Json>) {
  const published: Json = await (await fetch(`${url}/projects/${slug}/manifest?version=${n}`)).json();
  const { signature } = await sign(published);
  const file = join(store, slug, `v${n}`, "manifest.json");
  const onDisk = JSON.parse(await readFile(file, "utf8"));
  await writeFile(file, JSON.stringify({ ...onDisk, signature }, null, 2));
}

Deno.test("pull --verify takes only versions signed by pinned keys, learns endorsed keys, refuses rollback", async () => {
  const [k1, k2, k3] = await Promise.all(
    [...vectors.seeds, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7"].map(signingKey),
  );
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("cities", 3, { parts: [{ sql: citySql(0, 700) }] });
    await w.version("cities", 4, { parts: [{ sql: citySql(0, 800) }] });
    w.close();
    await signOnDisk(url, store, "cities", 1, (m) => signManifest(m, ORIGIN, k1));
    await signOnDisk(
      url,
      store,
      "cities",
      2,
      (m) => signManifest({ ...m, totals: { ...m.totals, records: 1 } }, ORIGIN, k1),
    );
    const link = await endorse(ORIGIN, k1, k2);
    await signOnDisk(url, store, "cities", 3, (m) => signManifest(m, ORIGIN, k2, [link]));
    await signOnDisk(url, store, "cities", 4, (m) => signManifest(m, ORIGIN, k3));
    const dir = await tempDir();
    try {
      const trustFile = join(dir.path, "trust.json");
      await writeTrustFile(trustFile, {
        origins: {
          [ORIGIN]: [{ kid: k1.kid, alg: "Ed25519", publicKey: k1.publicKey, status: "current", addedAt: "x" }],
        },
      });
      const client = new Client({ baseUrl: url, apiKey: "k" });
      const trust = { trustFile, origin: ORIGIN, required: true };
      const into = join(dir.path, "store");

      const v1 = await pull(client, "cities", { store: into, version: 1, trust });
      assertEquals([v1.signature, v1.downloaded], ["verified", 2]);
      assertEquals(JSON.parse(await readFile(join(into, "cities", "v1", "manifest.json"), "utf8")).verified, true);

      const bad = await assertRejects(
        () => pull(client, "cities", { store: into, version: 2, trust }),
        /untrusted: the signature does not verify/,
      );
      assertEquals(bad instanceof SignatureError, true);
      assertEquals(
        (await readdir(join(into, "cities"))).filter((n) => n.startsWith("v")),
        ["v1"],
        "nothing of v2 was taken",
      );
      assertEquals((await readdir(join(into, "cities", "parts"))).length, 2, "no part of v2 was fetched");

      const v3 = await pull(client, "cities", { store: into, version: 3, trust });
      assertEquals(v3.signature, "verified");
      const pinned: Json = JSON.parse(await readFile(trustFile, "utf8")).origins[ORIGIN];
      assertEquals(pinned.map((k: Json) => [k.kid, k.endorsedBy ?? null]), [[k1.kid, null], [k2.kid, k1.kid]]);

      await assertRejects(
        () => pull(client, "cities", { store: into, version: 4, trust }),
        /untrusted: key .* is not pinned/,
      );
      await assertRejects(
        () => pull(client, "cities", { store: into, version: 4, trust: { ...trust, required: false } }),
        /untrusted: key .* is not pinned/,
        // once keys are pinned for the origin, an unknown key is refused even without --verify
      );
      await signOnDisk(url, store, "cities", 2, (m) => signManifest(m, ORIGIN, k1));
      await rm(join(store, "cities", "v4"), { recursive: true });
      await rm(join(store, "cities", "v3"), { recursive: true });
      await assertRejects(() => pull(client, "cities", { store: into, trust }), /v2 is below v3, held already/);
      const again = await pull(client, "cities", { store: into, version: 1, trust });
      assertEquals([again.version, again.downloaded], [1, 0], "an older version asked for by number is no rollback");
    } finally {
      await dir.cleanup();
    }
  });
});
