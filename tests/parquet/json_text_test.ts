import { assertEquals } from "../support/assert.ts";
import { float32Text, valueText } from "../../src/parquet/mod.ts";

Deno.test("64-bit integers keep every digit; as strings beyond 2^53 when asked", () => {
  assertEquals(valueText(9007199254740993n, "number"), "9007199254740993");
  assertEquals(valueText(-9223372036854775808n, "number"), "-9223372036854775808");
  assertEquals(valueText(9007199254740993n, "string"), '"9007199254740993"');
  assertEquals(valueText(9007199254740991n, "string"), "9007199254740991");
  assertEquals(valueText(42n, "string"), "42");
});

Deno.test("doubles print in their shortest round-trip form; NaN and infinities are null", () => {
  assertEquals(valueText(0.1, "number"), "0.1");
  assertEquals(valueText(1e21, "number"), "1e+21");
  assertEquals(valueText(-0, "number"), "0");
  for (const v of [NaN, Infinity, -Infinity]) assertEquals(valueText(v, "number"), "null");
});

Deno.test("32-bit floats print without float noise", () => {
  assertEquals(float32Text(Math.fround(0.1)), "0.1");
  assertEquals(float32Text(Math.fround(3.4028234663852886e38)), "3.4028235e+38");
  assertEquals(float32Text(Math.fround(1 / 3)), "0.33333334");
  assertEquals(float32Text(Math.fround(NaN)), "null");
  for (const v of [0.5, 1.1, 123456.79, 1e-7]) {
    assertEquals(Math.fround(Number(float32Text(Math.fround(v)))), Math.fround(v));
  }
});

Deno.test("strings are escaped as JSON", () => {
  assertEquals(valueText('a"b\\c\n\u0000é😀', "number"), JSON.stringify('a"b\\c\n\u0000é😀'));
});
