import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "../../src/client/client.ts";
import { loadBundle, saveBundle } from "../../src/local/bundle.ts";
import { pull } from "../../src/local/pull.ts";
import { SignatureError } from "../../src/client/errors.ts";
import { writeTrustFile } from "../../src/trust/trust_file.ts";
import { members, rewrite } from "../support/bundle_edit.ts";
import { runCli } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, StoreWriter, tempDir } from "../support/store_fixture.ts";

const SEED = "22".repeat(32);

/** A store whose cities v2 was pulled, signed, from a test origin; a trust file pinning that origin's key. */
async function signedSetup(scratch: string) {
  const originStore = join(scratch, "origin");
  await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: SEED });
  const key = origin.app!.current()!;
  const trustFile = join(scratch, "trust.json");
  await writeTrustFile(trustFile, {
    origins: {
      [origin.url]: [{ kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status: "current", addedAt: "x" }],
    },
  });
  const from = join(scratch, "from");
  const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
  const pulled = await pull(client, "cities", {
    store: from,
    trust: { trustFile, origin: origin.url, required: true },
  });
  assertEquals(pulled.signature, "verified");
  await pull(client, "cities", { store: from, version: 1 });
  return { origin, trustFile, from };
}

Deno.test("load --verify takes a signed bundle and refuses an unsigned one or a forged signature, the store unchanged", async () => {
  const dir = await tempDir();
  const { origin, trustFile, from } = await signedSetup(dir.path);
  try {
    const trust = { trustFile, origin: "", required: true };
    const signed = join(dir.path, "v2.svc");
    await saveBundle(from, "cities", 2, signed);
    const to = join(dir.path, "to");
    const loaded = await loadBundle(signed, to, { trust });
    assertEquals([loaded.written, loaded.signature], [true, "verified"]);
    assertEquals(JSON.parse(await readFile(join(to, "cities", "v2", "manifest.json"), "utf8")).verified, true);

    const unsignedStore = join(dir.path, "plain");
    const w = new StoreWriter(unsignedStore);
    await w.version("cities", 1, { parts: [{ sql: "SELECT 1::BIGINT AS id" }] });
    w.close();
    const unsigned = join(dir.path, "v1.svc");
    await saveBundle(unsignedStore, "cities", 1, unsigned);
    const e = await assertRejects(() => loadBundle(unsigned, to, { trust }), /v1 is unsigned/);
    assert(e instanceof SignatureError);
    assertEquals(
      (await loadBundle(unsigned, join(dir.path, "lax"), { trust: { ...trust, required: false } })).signature,
      "unsigned",
    );

    const forged = join(dir.path, "forged.svc");
    await saveBundle(from, "cities", 2, forged);
    await rewrite(forged, (all) => {
      const manifest = JSON.parse(new TextDecoder().decode(all.find(([n]) => n === "manifest.json")![1]));
      manifest.totals.records = 1;
      const bytes = new TextEncoder().encode(JSON.stringify(manifest));
      return all.map(([name, body]): [string, Uint8Array] => {
        if (name === "manifest.json") return [name, bytes];
        if (name !== "svc-bundle.json") return [name, body];
        const header = JSON.parse(new TextDecoder().decode(body));
        header.manifestSha256 = createHash("sha256").update(bytes).digest("hex");
        return [name, new TextEncoder().encode(JSON.stringify(header))];
      });
    });
    const fresh = join(dir.path, "fresh");
    for (const required of [true, false]) {
      await assertRejects(
        () => loadBundle(forged, fresh, { trust: { ...trust, required } }),
        /untrusted: the signature does not verify/,
      );
    }
    assertEquals(await readdir(fresh).catch(() => []), [], "nothing was laid out");
    assertEquals((await members(forged)).length, 6);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("svc load --verify and svc save show progress on stderr; a local project is never overwritten", async () => {
  const dir = await tempDir();
  const { origin, trustFile, from } = await signedSetup(dir.path);
  try {
    const out = join(dir.path, "c.svc");
    const env = { SVC_TRUST_FILE: trustFile };
    const saved = await runCli(["save", "cities@2", "-o", out, "--store", from], env);
    assertEquals(saved.code, 0, saved.stderr);
    assertMatch(saved.stderr, /^save cities: \d+\.\d kB in \d+\.\d s\n$/);
    const to = join(dir.path, "to");
    const loaded = await runCli(["load", out, "--store", to, "--verify"], env);
    assertEquals(loaded.code, 0, loaded.stderr);
    assertMatch(loaded.stderr, /^load: \d+\.\d kB in \d+\.\d s\n$/);
    assertMatch(loaded.stdout, /cities v2, 600 records in 3 parts -> .* · signed ✓/);
    const quiet = await runCli(["load", out, "--store", to, "--check", "--no-progress"], env);
    assertEquals([quiet.code, quiet.stderr], [0, ""], "--no-progress: nothing on stderr");

    const local = join(dir.path, "local");
    const w = new StoreWriter(local);
    await w.project("cities", { slug: "cities", local: true });
    w.close();
    const refused = await runCli(["load", out, "--store", local], env);
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /^error: cities is a local project/m);
    const pulled = await runCli([
      "pull",
      "cities",
      "--store",
      local,
      "--base-url",
      origin.url,
      "--api-key",
      "agent-key",
    ], env);
    assertEquals(pulled.code, 1);
    assertMatch(pulled.stderr, /^error: cities is a local project/m);
    assertEquals(await readdir(join(local, "cities")), ["project.json"]);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("an unsigned cached copy is not taken as verified: a verified pull of the same parts gives it the signature", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: SEED });
  try {
    const client = new Client({ baseUrl: origin.url, apiKey: "agent-key" });
    const store = join(dir.path, "store");
    const trustFile = join(dir.path, "trust.json");
    const lax = await pull(client, "cities", { store, trust: { trustFile, origin: origin.url, required: false } });
    assertEquals(lax.signature, "untrusted", "no key pinned yet");
    const manifestPath = join(store, "cities", "v2", "manifest.json");
    assertEquals(JSON.parse(await readFile(manifestPath, "utf8")).verified, undefined);
    const key = origin.app!.current()!;
    await writeTrustFile(trustFile, {
      origins: {
        [origin.url]: [{ kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status: "current", addedAt: "x" }],
      },
    });
    const strict = await pull(client, "cities", { store, trust: { trustFile, origin: origin.url, required: true } });
    assertEquals([strict.signature, strict.downloaded], ["verified", 0]);
    const held = JSON.parse(await readFile(manifestPath, "utf8"));
    assertEquals([held.verified, held.signature.kid], [true, key.kid]);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
