import { assertEquals } from "../support/assert.ts";
import { pullLine } from "../../src/cli/pull.ts";
import type { PullResult } from "../../src/local/pull.ts";

const RESULT: PullResult = {
  slug: "cities",
  version: 2,
  records: 48000,
  parts: 2,
  downloaded: 1,
  bytes: 123,
  signedBy: "https://origin.example",
  signature: "verified",
};

Deno.test("svc pull prints the line of origin-wire 7.3: downloaded or up to date, and the signature's status", () => {
  assertEquals(
    pullLine("cities", "svc-data", RESULT),
    "cities v2: 48000 record(s) in 2 part(s) → svc-data/cities/parts/ (1 part(s) downloaded) · signed by " +
      "https://origin.example ✓",
  );
  assertEquals(
    pullLine("cities", "svc-data", { ...RESULT, downloaded: 0, signature: "untrusted" }),
    "cities v2: 48000 record(s) in 2 part(s) → svc-data/cities/parts/ (up to date) · signed by " +
      "https://origin.example (not trusted here: svc trust add)",
  );
  assertEquals(
    pullLine("cities", "/tmp/s", { ...RESULT, signedBy: null, signature: null }),
    "cities v2: 48000 record(s) in 2 part(s) → /tmp/s/cities/parts/ (1 part(s) downloaded) · unsigned",
  );
});
