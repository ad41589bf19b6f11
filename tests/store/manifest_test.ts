import { assertEquals } from "../support/assert.ts";
import { BOOKKEEPING_KEYS, parseStoredManifest, publishManifest } from "../../src/store/mod.ts";

const SHA = "ab".repeat(32);

Deno.test("publishing keeps every key but bookkeeping, restores format and adds part URLs", () => {
  const stored = {
    format: "parquet",
    project: "cities",
    version: 2,
    parent: 1,
    schema: { hash: "h", fields: [], allowExtra: false },
    parts: [{ sha256: SHA, bytes: 10, records: 3, url: "https://origin.example/stale", extra: 1 }],
    totals: { records: 3 },
    signature: { origin: "https://origin.example", kid: "k", alg: "Ed25519", sig: "s", chain: [] },
    future: { kept: true },
    ...Object.fromEntries(BOOKKEEPING_KEYS.map((k) => [k, "local"])),
  };
  const parsed = parseStoredManifest(JSON.stringify(stored), "cities", 2);
  if ("reason" in parsed) throw new Error(parsed.reason);
  const published = publishManifest(parsed, "cities", 2, (sha) => `http://node/parts/cities/${sha}.parquet`);
  assertEquals(published, {
    format: "svc-dataset-manifest/1",
    project: "cities",
    version: 2,
    parent: 1,
    schema: stored.schema,
    parts: [{ sha256: SHA, bytes: 10, records: 3, extra: 1, url: `http://node/parts/cities/${SHA}.parquet` }],
    totals: { records: 3 },
    signature: stored.signature,
    future: { kept: true },
  });
  assertEquals(publishManifest(parsed, "cities", 2, null).parts[0].url, undefined);
});

Deno.test("a stored manifest may omit project and version; they come from its place", () => {
  const parsed = parseStoredManifest(`{"parts": [{"sha256": "${SHA}", "bytes": 0}]}`, "bare", 7);
  if ("reason" in parsed) throw new Error(parsed.reason);
  const published = publishManifest(parsed, "bare", 7, null);
  assertEquals([published.project, published.version, published.parts[0].records], ["bare", 7, undefined]);
});
