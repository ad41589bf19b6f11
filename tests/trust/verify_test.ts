import { assertEquals, type Json } from "../support/assert.ts";
import { fromHex } from "../support/hex.ts";
import { endorse, signingKey, signManifest } from "../support/signing.ts";
import { fromBase64, keyId, toBase64, verifyEd25519 } from "../../src/trust/ed25519.ts";
import { endorsementStatement, manifestStatement } from "../../src/trust/statement.ts";
import { type PinnedKey, verifyManifest } from "../../src/trust/verify.ts";
import vectors from "./vectors.json" with { type: "json" };

const ORIGIN = vectors.origin;
const pin = (k: { kid: string; publicKey: string }, extra: Partial<PinnedKey> = {}): PinnedKey => ({
  kid: k.kid,
  alg: "Ed25519",
  publicKey: k.publicKey,
  status: "current",
  ...extra,
});

Deno.test("Ed25519 matches RFC 8032 test 1; key ids are the first 16 hex of SHA-256 of the raw key", async () => {
  const pub = fromHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const sig = fromHex(
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  );
  assertEquals(await verifyEd25519(pub, sig, new Uint8Array(0)), true);
  assertEquals(await verifyEd25519(pub, sig, new Uint8Array([0])), false);
  assertEquals(toBase64(pub), vectors.keys[0].publicKey, "the fixed seed is RFC 8032's");
  assertEquals(keyId(pub), vectors.keys[0].kid);
});

Deno.test("the signed statement and signatures match the checked-in vectors byte for byte", async () => {
  const manifest = vectors.manifest as Json;
  assertEquals(new TextDecoder().decode(manifestStatement(ORIGIN, manifest)), vectors.statement);
  const [k1, k2] = await Promise.all(vectors.seeds.map(signingKey));
  assertEquals([k1.kid, k2.kid], vectors.keys.map((k) => k.kid));
  assertEquals(await k1.sign(manifestStatement(ORIGIN, manifest)), vectors.signatureByKey1);
  const key2 = { alg: "Ed25519", kid: k2.kid, publicKey: k2.publicKey };
  assertEquals(new TextDecoder().decode(endorsementStatement(ORIGIN, key2)), vectors.endorsementStatement);
  assertEquals(await endorse(ORIGIN, k1, k2), vectors.endorsement);
  assertEquals(await k2.sign(manifestStatement(ORIGIN, manifest)), vectors.signatureByKey2);
  const signed = {
    ...manifest,
    signature: { origin: ORIGIN, kid: k1.kid, alg: "Ed25519", sig: vectors.signatureByKey1, chain: [] },
  };
  assertEquals((await verifyManifest(signed, ORIGIN, [pin(vectors.keys[0])])).status, "verified");
});

Deno.test("verification: pinned keys, chains that learn keys, and what does not enter the signed bytes", async () => {
  const [k1, k2] = await Promise.all(vectors.seeds.map(signingKey));
  const manifest = vectors.manifest as Json;
  const byK1 = await signManifest(manifest, ORIGIN, k1);
  assertEquals(await verifyManifest(byK1, ORIGIN, [pin(k1)]), { status: "verified", reason: null, learned: [] });
  const byK2 = await signManifest(manifest, ORIGIN, k2, [await endorse(ORIGIN, k1, k2)]);
  const verdict = await verifyManifest(byK2, ORIGIN, [pin(k1)]);
  assertEquals(verdict.status, "verified");
  assertEquals(verdict.learned, [{
    kid: k2.kid,
    alg: "Ed25519",
    publicKey: k2.publicKey,
    status: "current",
    endorsedBy: k1.kid,
  }]);
  const moved = {
    ...byK1,
    parts: (byK1.parts as Json[]).map((p) => ({ ...p, url: "http://mirror.example/p" })),
    urlExpiresAt: "2030-01-01T00:00:00+00:00",
    pulledAt: "2026-11-22T00:00:00Z",
    verified: true,
  };
  assertEquals(
    (await verifyManifest(moved, ORIGIN, [pin(k1)])).status,
    "verified",
    "URLs and bookkeeping are not signed",
  );
  const { signature: _s, ...unsigned } = byK1;
  assertEquals((await verifyManifest(unsigned, ORIGIN, [pin(k1)])).status, "unsigned");
});

Deno.test("attacks: each is untrusted, and no key is learned", async () => {
  const seeds = [...vectors.seeds, "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7"];
  const [k1, k2, k3] = await Promise.all(seeds.map(signingKey));
  const manifest = vectors.manifest as Json;
  const byK1 = await signManifest(manifest, ORIGIN, k1);
  const sigOf = (m: Json) => m.signature;
  const flip = (b64: string) => {
    const bytes = fromBase64(b64)!;
    bytes[5] ^= 1;
    return toBase64(bytes);
  };
  const cases: [string, Json, PinnedKey[]][] = [
    ["bad signature", { ...byK1, signature: { ...sigOf(byK1), sig: flip(sigOf(byK1).sig) } }, [pin(k1)]],
    ["tampered content", { ...byK1, totals: { ...(byK1.totals as Json), records: 3 } }, [pin(k1)]],
    ["rollback to another version", { ...byK1, version: 1 }, [pin(k1)]],
    ["unknown key, no chain", await signManifest(manifest, ORIGIN, k3), [pin(k1)]],
    ["wrong algorithm", { ...byK1, signature: { ...sigOf(byK1), alg: "RSA" } }, [pin(k1)]],
    ["malformed base64", { ...byK1, signature: { ...sigOf(byK1), sig: "!!not base64!!" } }, [pin(k1)]],
    ["signature of the wrong length", { ...byK1, signature: { ...sigOf(byK1), sig: toBase64(new Uint8Array(63)) } }, [
      pin(k1),
    ]],
    ["pinned key of the wrong length", byK1, [{ ...pin(k1), publicKey: toBase64(new Uint8Array(31)) }]],
    ["revoked key", byK1, [pin(k1, { status: "revoked", revoked: true })]],
    ["another origin", await signManifest(manifest, "https://evil.example", k1), [pin(k1)]],
    ["endorsement by a key not pinned", await signManifest(manifest, ORIGIN, k3, [await endorse(ORIGIN, k2, k3)]), [
      pin(k1),
    ]],
    [
      "endorsement by a revoked key",
      await signManifest(manifest, ORIGIN, k2, [await endorse(ORIGIN, k1, k2)]),
      [pin(k1, { status: "revoked", revoked: true })],
    ],
    [
      "a chain with a gap",
      await signManifest(
        manifest,
        ORIGIN,
        k3,
        [await endorse(ORIGIN, k1, k2), await endorse(ORIGIN, k1, k3)].map((l, i) =>
          i === 1 ? { ...l, by: k1.kid } : l
        ),
      ),
      [pin(k1)],
    ],
    [
      "an endorsement signed over another key",
      await signManifest(manifest, ORIGIN, k3, [{
        ...(await endorse(ORIGIN, k1, k2)),
        kid: k3.kid,
        publicKey: k3.publicKey,
      }]),
      [pin(k1)],
    ],
    [
      "a chain key that does not match its id",
      await signManifest(manifest, ORIGIN, k2, [{ ...(await endorse(ORIGIN, k1, k2)), kid: "0000000000000000" }]),
      [pin(k1)],
    ],
  ];
  for (const [name, signed, pinned] of cases) {
    const verdict = await verifyManifest(signed, ORIGIN, pinned);
    assertEquals([verdict.status, verdict.learned], ["untrusted", []], `${name}: ${verdict.reason}`);
  }
});
