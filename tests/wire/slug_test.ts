import { assertEquals } from "../support/assert.ts";
import { isSha256, isSlug } from "../../mod.ts";

Deno.test("slugs: 3 to 60 lowercase letters, digits and inner hyphens", () => {
  for (const s of ["abc", "world-cities", "a1b", "x".repeat(60), "0-0"]) assertEquals(isSlug(s), true, s);
  for (const s of ["ab", "x".repeat(61), "-abc", "abc-", "Abc", "a_b", "a.b", "../x", "a/b", "a b", "é-ab", "abc\n"]) {
    assertEquals(isSlug(s), false, JSON.stringify(s));
  }
});

Deno.test("part digests: 64 lowercase hex", () => {
  assertEquals(isSha256("0".repeat(64)), true);
  for (const s of ["0".repeat(63), "0".repeat(65), "G".repeat(64), "A".repeat(64), ""]) {
    assertEquals(isSha256(s), false, s);
  }
});
