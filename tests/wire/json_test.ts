import { assertEquals, assertThrows } from "../support/assert.ts";
import { JSON_MAX_DEPTH, nestsDeeperThan, parseExactJson, stableStringify } from "../../src/wire/mod.ts";

Deno.test("parseExactJson keeps integers beyond 2^53 exact and agrees with JSON.parse elsewhere", () => {
  assertEquals(parseExactJson('{"a": 9007199254740993, "b": -9223372036854775808, "c": 9007199254740991}'), {
    a: 9007199254740993n,
    b: -9223372036854775808n,
    c: 9007199254740991,
  });
  for (
    const text of [
      '{"x": [1, 2.5, -0, 1e3, 1E-7, "s\\u00e9\\n\\"", true, false, null, {}, []]}',
      '"\\ud83d\\ude00"',
      ' [ 1 , { "k" : [ ] } ] ',
      '{"__proto__": {"polluted": true}}',
    ]
  ) {
    assertEquals(JSON.stringify(parseExactJson(text)), JSON.stringify(JSON.parse(text)), text);
  }
  assertEquals(({} as Record<string, unknown>).polluted, undefined, "no prototype pollution");
  assertEquals(Object.keys(parseExactJson('{"__proto__": 1}') as object), ["__proto__"]);
});

Deno.test("parseExactJson refuses what is not JSON", () => {
  for (
    const bad of [
      "",
      "{",
      "[1,]",
      "{'a':1}",
      "01",
      "1 2",
      '"a\nb"',
      "NaN",
      '{"a" 1}',
      "[".repeat(300) + "]".repeat(300),
    ]
  ) {
    assertThrows(() => parseExactJson(bad));
  }
});

Deno.test("stableStringify sorts keys, keeps non-ASCII, writes numbers as JavaScript does", () => {
  assertEquals(
    stableStringify({ b: [3, { d: 1, c: 2 }], a: "é😀", n: 1e21, f: 0.1, z: null }),
    '{"a":"é😀","b":[3,{"c":2,"d":1}],"f":0.1,"n":1e+21,"z":null}',
  );
  assertEquals(stableStringify({ big: 18446744073709551616n, skip: undefined }), '{"big":18446744073709551616}');
  assertEquals(stableStringify({ B: 1, a: 2, "ä": 3 }), '{"B":1,"a":2,"ä":3}');
});

Deno.test("stableStringify and nestsDeeperThan walk any depth without the call stack; the limit counts as the parser does", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { b: deep, a: null };
  const text = stableStringify(deep);
  assertEquals(text.length > 500_000, true);
  assertEquals(text.startsWith('[{"a":null,"b":[{"a":null,"b":'), true);
  assertEquals(nestsDeeperThan(deep, 200), true);
  assertEquals(nestsDeeperThan(deep, 100_000), false);
  // the parser takes 200 levels below the top and refuses the 201st: nestsDeeperThan draws the same line
  const at = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);
  assertEquals(nestsDeeperThan(parseExactJson(at(200)), JSON_MAX_DEPTH), false);
  assertThrows(() => parseExactJson(at(201)));
  assertEquals(nestsDeeperThan(JSON.parse(at(201)), JSON_MAX_DEPTH), true);
  assertEquals(
    stableStringify({ b: [undefined, 2n ** 64n], a: { d: undefined, c: "é" } }),
    '{"a":{"c":"é"},"b":[null,18446744073709551616]}',
  );
});
