import { assertEquals, assertMatch } from "../support/assert.ts";
import { createHmac } from "node:crypto";
import { partSignature, partSignatureValid, signPartQuery } from "../../src/service/part_url.ts";

const SHA = "ab".repeat(32);

Deno.test("the part signature is hex HMAC-SHA256 keyed with the token over slug/sha256/exp", () => {
  const want = createHmac("sha256", "tok").update(`cities/${SHA}/1764000000`).digest("hex");
  assertEquals(partSignature("tok", "cities", SHA, 1764000000), want);
  const { query, exp } = signPartQuery("tok", "cities", SHA, 1000.7);
  assertEquals(exp, 4600);
  assertEquals(query, `?exp=4600&sig=${partSignature("tok", "cities", SHA, 4600)}`);
});

Deno.test("partSignatureValid refuses missing, malformed, foreign and expired signatures", () => {
  const sig = partSignature("tok", "cities", SHA, 2000);
  assertEquals(partSignatureValid("tok", "cities", SHA, "2000", sig, 1999), true);
  assertEquals(partSignatureValid("tok", "cities", SHA, "2000", sig, 2000), false, "expired at exp");
  assertEquals(partSignatureValid("other", "cities", SHA, "2000", sig, 0), false, "another token");
  assertEquals(partSignatureValid("tok", "towns", SHA, "2000", sig, 0), false, "another project");
  assertEquals(partSignatureValid("tok", "cities", "cd".repeat(32), "2000", sig, 0), false, "another part");
  assertEquals(partSignatureValid("tok", "cities", SHA, "2001", sig, 0), false, "another expiry");
  for (
    const [exp, s] of [[null, sig], ["2000", null], ["2e3", sig], ["2000", sig.slice(1)], ["2000", sig.toUpperCase()]]
  ) {
    assertEquals(partSignatureValid("tok", "cities", SHA, exp, s, 0), false, `${exp} ${s}`);
  }
  assertMatch(sig, /^[0-9a-f]{64}$/);
});
