import { assertEquals } from "../support/assert.ts";
import {
  BOOKKEEPING_KEYS,
  manifestChunks,
  parseVersion,
  type PlacedPart,
  type PublishedVersion,
  publishManifest,
} from "../../src/store/mod.ts";

const SHA = "ab".repeat(32);

function stored(text: string, slug: string, n: number): PublishedVersion {
  const manifest = parseVersion(text, slug, n);
  if ("reason" in manifest) throw new Error(manifest.reason);
  if (manifest.layout.kind !== "listed") throw new Error("listed parts expected");
  const parts: PlacedPart[] = manifest.layout.parts.map((p) => ({ ...p, path: `/x/${p.sha256}`, start: null }));
  return { root: "/nowhere", slug, manifest, parts };
}

Deno.test("publishing keeps every key but bookkeeping, restores format and adds part URLs", async () => {
  const onDisk = {
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
  const version = stored(JSON.stringify(onDisk), "cities", 2);
  const partUrl = (sha: string) => `http://node/parts/cities/${sha}.parquet`;
  const published = await publishManifest(version, { partUrl, sources: true });
  assertEquals(published, {
    format: "svc-dataset-manifest/1",
    project: "cities",
    version: 2,
    parent: 1,
    schema: onDisk.schema,
    parts: [{ sha256: SHA, bytes: 10, records: 3, extra: 1, url: `http://node/parts/cities/${SHA}.parquet` }],
    totals: { records: 3 },
    signature: onDisk.signature,
    future: { kept: true },
  });
  assertEquals((await publishManifest(version, { partUrl: null, sources: true })).parts[0].url, undefined);
  let text = "";
  for await (const piece of manifestChunks(version, { partUrl, sources: true })) text += piece;
  assertEquals(JSON.parse(text), published, "the streamed text says the same");
});

Deno.test("a stored manifest may omit project and version; they come from its place", async () => {
  const version = stored(`{"parts": [{"sha256": "${SHA}", "bytes": 0}]}`, "bare", 7);
  const published = await publishManifest(version, { partUrl: null, sources: true });
  assertEquals([published.project, published.version, published.parts[0].records], ["bare", 7, undefined]);
});
