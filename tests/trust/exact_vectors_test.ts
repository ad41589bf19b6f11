import { assert, assertEquals, type Json } from "../support/assert.ts";
import { signingKey } from "../support/signing.ts";
import { manifestStatement } from "../../src/trust/statement.ts";
import { type PinnedKey, verifyManifest } from "../../src/trust/verify.ts";
import { parseDocumentJson, stringifyExactJson } from "../../src/wire/exact_json.ts";
import { canonicalStatement, signStatement } from "./canonical.ts";
import vectors from "./vectors.json" with { type: "json" };

const ORIGIN = vectors.origin;
const PINNED: PinnedKey[] = [{ ...vectors.keys[0], alg: "Ed25519", status: "current" }];
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The manifest written as `text`, as the origin serves it: with the case's signature. */
function signedText(text: string, sig: string): string {
  const signature = { origin: ORIGIN, kid: vectors.keys[0].kid, alg: "Ed25519", sig, chain: [] };
  return `${text.slice(0, text.lastIndexOf("}"))},\n  "signature": ${JSON.stringify(signature)}\n}`;
}

/** `text` with its first integer literal of at least 16 digits moved by `by`. */
function nudgeBigInteger(text: string, by: bigint): string {
  return text.replace(/(?<![.\d])-?\d{16,}(?![.eE\d])/, (digits) => String(BigInt(digits) + by));
}

Deno.test("exact vectors: the independent signer's statements and signatures are the checked-in ones", async () => {
  assertEquals(vectors.exact.cases.length, 10);
  const key = await signingKey(vectors.seeds[0]);
  for (const c of vectors.exact.cases) {
    assertEquals(canonicalStatement(ORIGIN, c.manifestText), c.statement, c.name);
    assertEquals(signStatement(vectors.seeds[0], c.statement), c.signature, c.name);
    assertEquals(await key.sign(new TextEncoder().encode(c.statement)), c.signature, `${c.name}: WebCrypto agrees`);
  }
});

Deno.test("exact vectors: the statement rebuilt from the exactly parsed manifest is the origin's, byte for byte", () => {
  for (const c of vectors.exact.cases) {
    const manifest = parseDocumentJson(c.manifestText) as Json;
    assertEquals(decode(manifestStatement(ORIGIN, manifest)), c.statement, c.name);
    const rounded = decode(manifestStatement(ORIGIN, JSON.parse(c.manifestText)));
    assertEquals(rounded === c.statement, c.jsonParseVerifies, `${c.name}: JSON.parse rounds (or does not)`);
    // What a node stores and serves again (pretty or compact) rebuilds the same statement.
    for (const indent of [0, 2]) {
      const again = parseDocumentJson(stringifyExactJson(manifest, indent)) as Json;
      assertEquals(decode(manifestStatement(ORIGIN, again)), c.statement, `${c.name}: re-served, indent ${indent}`);
    }
  }
});

Deno.test("exact vectors: each signed manifest verifies; JSON.parse's copy fails where it rounds", async () => {
  for (const c of vectors.exact.cases) {
    const text = signedText(c.manifestText, c.signature);
    const verdict = await verifyManifest(parseDocumentJson(text) as Json, ORIGIN, PINNED);
    assertEquals([verdict.status, verdict.reason], ["verified", null], c.name);
    const rounded = await verifyManifest(JSON.parse(text), ORIGIN, PINNED);
    assertEquals(rounded.status, c.jsonParseVerifies ? "verified" : "untrusted", `${c.name} under JSON.parse`);
  }
});

Deno.test("exact vectors: a big integer changed by one, which JSON.parse does not even see, fails verification", async () => {
  let cases = 0;
  for (const c of vectors.exact.cases) {
    const text = signedText(c.manifestText, c.signature);
    const tampered = nudgeBigInteger(text, 1n);
    if (tampered === text) continue;
    cases++;
    const verdict = await verifyManifest(parseDocumentJson(tampered) as Json, ORIGIN, PINNED);
    assertEquals([verdict.status, verdict.reason], ["untrusted", "the signature does not verify"], c.name);
    assertEquals(await verifyManifest(parseDocumentJson(nudgeBigInteger(text, 0n)) as Json, ORIGIN, PINNED), {
      status: "verified",
      reason: null,
      learned: [],
    });
  }
  assertEquals(cases, 9, "every case with an integer literal of 16 digits or more is tampered");
  const max = vectors.exact.cases.find((c) => c.name === "2^63-1")!;
  const tampered = nudgeBigInteger(max.manifestText, -1n);
  assert(tampered.includes("9223372036854775806"));
  assertEquals(JSON.parse(tampered), JSON.parse(max.manifestText), "JSON.parse reads both as 2^63");
  const signed = signedText(tampered, max.signature);
  assertEquals((await verifyManifest(parseDocumentJson(signed) as Json, ORIGIN, PINNED)).status, "untrusted");
});

Deno.test("stringifyExactJson writes JSON.stringify's bytes, bigints as digits; parseDocumentJson reads them back", () => {
  const plain = { a: [1, "é\n", null, { b: undefined, c: true }], d: {}, e: [], f: -0, g: 1e21, h: new Date(0) };
  for (const indent of [0, 2]) assertEquals(stringifyExactJson(plain, indent), JSON.stringify(plain, null, indent));
  const big = { id: 2n ** 64n + 1n, list: [-(2n ** 53n) - 1n, 1.5e-7, [], {}], skip: undefined };
  assertEquals(stringifyExactJson(big), '{"id":18446744073709551617,"list":[-9007199254740993,1.5e-7,[],{}]}');
  assertEquals(
    stringifyExactJson(big, 2),
    '{\n  "id": 18446744073709551617,\n  "list": [\n    -9007199254740993,\n    1.5e-7,\n    [],\n    {}\n  ]\n}',
  );
  assertEquals(parseDocumentJson(stringifyExactJson(big, 2)), { id: big.id, list: big.list });
  assertEquals(parseDocumentJson('{"x": 1.5e-7, "y": [9007199254740991]}'), { x: 1.5e-7, y: [9007199254740991] });
  for (
    const [text, value] of [
      ["-9007199254740993", -9007199254740993n],
      ["[1,9007199254740993]", [1, 9007199254740993n]],
      ['{"a":\n\t18446744073709551617}', { a: 18446744073709551617n }],
      ['{"sha":"1234567890123456789a","n":-0}', { sha: "1234567890123456789a", n: -0 }],
    ] as const
  ) {
    assertEquals(parseDocumentJson(text), value, text);
  }
});
