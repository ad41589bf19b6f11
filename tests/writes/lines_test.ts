/**
 * Lines of a byte stream cut anywhere (`src/writes/_lines.ts`): what the
 * duplicate gate reads a part's records through.
 *
 * @module
 */
import { assertEquals } from "../support/assert.ts";
import { linesOf } from "../../src/writes/_lines.ts";

async function* cutAt(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    yield bytes.subarray(from, at);
    from = at;
  }
}

Deno.test("lines of bytes cut at every place, inside lines and inside characters of two, three and four bytes", async () => {
  const lines = ['{"a":"é"}', '{"b":"✓ 😀"}', "", '{"c":3}'];
  const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
  const whole = ['{"a":"é"}', '{"b":"✓ 😀"}', "", '{"c":3}'];
  for (let at = 0; at <= bytes.length; at++) {
    assertEquals(await Array.fromAsync(linesOf(cutAt(bytes, [at]))), whole, `cut at ${at}`);
  }
  for (let at = 1; at + 1 < bytes.length; at++) {
    assertEquals(await Array.fromAsync(linesOf(cutAt(bytes, [at, at + 1]))), whole, `cut at ${at} and ${at + 1}`);
  }
  const unended = new TextEncoder().encode('{"a":1}\n{"b":"✓"}');
  assertEquals(await Array.fromAsync(linesOf(cutAt(unended, [12]))), ['{"a":1}', '{"b":"✓"}'], "the last line unended");
  assertEquals(await Array.fromAsync(linesOf(cutAt(new Uint8Array(0), []))), []);
});
