import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pinKeys, type TrustFile, trustFilePath } from "../../src/trust/trust_file.ts";
import { runCli } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { endorse, signingKey } from "../support/signing.ts";
import { tempDir } from "../support/store_fixture.ts";
import vectors from "./vectors.json" with { type: "json" };

const NOW = "2026-11-22T03:00:00.000Z";
const keyOf = (k: { kid: string; publicKey: string }, status = "current") => ({
  kid: k.kid,
  alg: "Ed25519",
  publicKey: k.publicKey,
  status,
});

Deno.test("trust: first contact pins every key not revoked; later only endorsed keys; revocation is transitive", async () => {
  const origin = "https://origin.example";
  const [k1, k2, k3, k4] = await Promise.all(
    [...vectors.seeds, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "0".repeat(63) + "1"].map(
      signingKey,
    ),
  );
  const trust: TrustFile = { origins: {} };
  const first = await pinKeys(
    trust,
    origin,
    { origin, keys: [keyOf(k1), keyOf(k2, "retired"), keyOf(k4, "revoked")] },
    { now: NOW },
  );
  assertEquals(first.added, [k1.kid, k2.kid]);
  assertEquals(trust.origins[origin].map((k) => [k.kid, k.status]), [[k1.kid, "current"], [k2.kid, "retired"]]);

  const link = await endorse(origin, k1, k3);
  const later = await pinKeys(trust, origin, {
    origin,
    keys: [keyOf(k1), keyOf(k3), keyOf(k4)],
    endorsements: [{ kid: link.kid, by: link.by, sig: link.sig }],
  }, { now: NOW });
  assertEquals(later.added, [k3.kid]);
  assertEquals(later.refused, [{ kid: k4.kid, reason: "no pinned, unrevoked key endorses it" }]);
  assertEquals(trust.origins[origin].find((k) => k.kid === k3.kid)?.endorsedBy, k1.kid);

  const forged = await pinKeys(trust, origin, {
    origin,
    keys: [keyOf(k4)],
    endorsements: [{ kid: k4.kid, by: k1.kid, sig: link.sig }],
  }, { now: NOW });
  assertEquals(forged.added, [], "an endorsement over another key does not count");
  const forced = await pinKeys(trust, origin, { origin, keys: [keyOf(k4)] }, { now: NOW, force: true });
  assertEquals([forced.added, trust.origins[origin].find((k) => k.kid === k4.kid)?.forced], [[k4.kid], true]);

  const revoked = await pinKeys(trust, origin, { origin, keys: [keyOf(k1, "revoked")] }, { now: NOW });
  assertEquals(revoked.revoked.sort(), [k1.kid, k3.kid].sort(), "the key k1 endorsed goes with it");
  assert(trust.origins[origin].filter((k) => k.revoked).every((k) => k.status === "revoked" && k.revokedAt === NOW));
  const again = await pinKeys(trust, origin, { origin, keys: [keyOf(k1)] }, { now: NOW });
  assertEquals(again.added, [], "a revoked key is never pinned again by a later document");
});

Deno.test("trust: the file path follows SVC_TRUST_FILE, then XDG_CONFIG_HOME", () => {
  assertEquals(trustFilePath({ SVC_TRUST_FILE: "/data/trust.json", XDG_CONFIG_HOME: "/x" }), "/data/trust.json");
  assertEquals(trustFilePath({ XDG_CONFIG_HOME: "/x" }), "/x/svc/trust.json");
  assertMatch(trustFilePath({}), /\/\.config\/svc\/trust\.json$/);
});

Deno.test("svc trust add, list and remove against a keys document; another origin's document is refused", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    const env = { SVC_TRUST_FILE: join(dir.path, "trust.json") };
    const [k1] = await Promise.all(vectors.seeds.map(signingKey));
    origin.fault("/.well-known/svc-keys", {
      body: JSON.stringify({ origin: origin.url, keys: [keyOf(k1)], endorsements: [] }),
    });
    const added = await runCli(["trust", "add", origin.url], env);
    assertEquals([added.code, added.stdout], [0, `${origin.url}: 1 key pinned (${k1.kid})\n`], added.stderr);
    const file: Json = JSON.parse(await readFile(env.SVC_TRUST_FILE, "utf8"));
    assertEquals(file.origins[origin.url][0].kid, k1.kid);
    const listed = await runCli(["trust", "list"], env);
    assertEquals(listed.stdout, `${origin.url}\n  ${k1.kid}  current\n`);
    origin.fault("/.well-known/svc-keys", {
      body: JSON.stringify({ origin: "https://evil.example", keys: [keyOf(k1)] }),
    });
    const foreign = await runCli(["trust", "add", origin.url], env);
    assertEquals(foreign.code, 1);
    assertMatch(foreign.stderr, /^error: the keys document speaks for "https:\/\/evil\.example"/);
    assertEquals(JSON.parse(await readFile(env.SVC_TRUST_FILE, "utf8")), file, "the trust file is unchanged");
    assertEquals((await runCli(["trust", "remove", origin.url], env)).code, 0);
    assertEquals(JSON.parse(await readFile(env.SVC_TRUST_FILE, "utf8")).origins, {});
    assertEquals((await runCli(["trust", "frobnicate"], env)).code, 2);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
