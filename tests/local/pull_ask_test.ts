/**
 * What a pull asks the origin for, counted at the test origin: no manifest
 * for a version whole on disk, and a manifest naming the parts held in
 * `have=` for one that is not, so that only new parts come with URLs (the
 * parts the origin counts as egress).
 *
 * @module
 */
import { assert, assertEquals } from "../support/assert.ts";
import { truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "../../src/client/client.ts";
import { ValueError } from "../../src/client/errors.ts";
import { pull } from "../../src/local/pull.ts";
import { type Seen, startOrigin, type TestOrigin } from "../support/origin.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

interface Scene {
  origin: TestOrigin;
  writer: StoreWriter;
  store: string;
  client: Client;
}

async function withScene(
  fn: (scene: Scene) => Promise<void>,
  origin: (root: string) => Promise<unknown> = citiesStore,
): Promise<void> {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await origin(originStore);
  const served = await startOrigin({ store: originStore, seed: "44".repeat(32) });
  const writer = new StoreWriter(originStore);
  try {
    const client = new Client({ baseUrl: served.url, apiKey: "agent-key" });
    await fn({ origin: served, writer, store: join(dir.path, "store"), client });
  } finally {
    writer.close();
    await served.close();
    await dir.cleanup();
  }
}

/** What reached the origin from `from` on, as `METHOD /path` (part downloads as `GET /parts/<sha>`). */
function asked(origin: TestOrigin, from: number): string[] {
  return origin.seen.slice(from).map((s: Seen) =>
    `${s.method} ${s.path.replace(/^\/parts\/cities\/([0-9a-f]{64})\.parquet.*$/, "/parts/$1")}`
  );
}

Deno.test("pull: no manifest for a version whole on disk; else have= names the parts held, and only new parts come with URLs", async () => {
  await withScene(async ({ origin, writer, store, client }) => {
    const first = await pull(client, "cities", { store });
    assertEquals([first.version, first.downloaded], [2, 3]);
    assertEquals(origin.app!.manifests, [{ slug: "cities", version: 2, parts: 3, withUrl: 3, have: 0 }]);

    let mark = origin.seen.length;
    const again = await pull(client, "cities", { store });
    assertEquals([again.version, again.downloaded, again.records, again.parts], [2, 0, 600, 3]);
    assertEquals(asked(origin, mark), ["GET /projects/cities"], "the detail names v2, held whole: nothing more");
    mark = origin.seen.length;
    const pinned = await pull(client, "cities", { store, version: 2 });
    assertEquals([pinned.version, pinned.downloaded], [2, 0]);
    assertEquals(asked(origin, mark), [], "a pinned version whole on disk costs no request at all");

    const [added] = await writer.extend("cities", 2, 3, [{ sql: citySql(600, 50) }]);
    mark = origin.seen.length;
    const third = await pull(client, "cities", { store });
    assertEquals([third.version, third.records, third.parts, third.downloaded], [3, 650, 4, 1]);
    assertEquals(origin.app!.manifests.length, 2);
    assertEquals(origin.app!.manifests[1], { slug: "cities", version: 3, parts: 4, withUrl: 1, have: 3 });
    const manifestAsk = origin.seen.slice(mark).find((s) => s.path.includes("/manifest"))!;
    assert(/[?&]have=[0-9a-f]{64}(,[0-9a-f]{64}){2}$/.test(manifestAsk.path), manifestAsk.path);
    assertEquals(asked(origin, mark).filter((a) => a.includes("/parts/")), [`GET /parts/${added}`]);

    // The version held before is signed offline: a pull with a trust check still asks for nothing.
    mark = origin.seen.length;
    const trust = { trustFile: join(store, "..", "trust.json"), origin: origin.url, required: false };
    const checked = await pull(client, "cities", { store, version: 3, trust });
    assertEquals([checked.downloaded, checked.signature, checked.signedBy], [0, "untrusted", origin.url]);
    assertEquals(asked(origin, mark), []);
  });
});

Deno.test("pull: a part named in have= that is not whole on disk after all is asked for again, with its URL", async () => {
  await withScene(async ({ origin, writer, store, client }) => {
    await pull(client, "cities", { store });
    const v2 = origin.app!.manifests[0];
    assertEquals(v2.withUrl, 3);
    const [added] = await writer.extend("cities", 2, 3, [{ sql: citySql(600, 50) }]);
    // A part of v2 cut short on disk: its name says it is held, its size says otherwise.
    const held = (await Array.fromAsync(Deno.readDir(join(store, "cities", "parts")))).map((e) => e.name).sort();
    const cut = held[0].slice(0, 64);
    await truncate(join(store, "cities", "parts", held[0]), 10);
    const mark = origin.seen.length;
    const third = await pull(client, "cities", { store });
    assertEquals([third.version, third.downloaded], [3, 2]);
    assertEquals(origin.app!.manifests.slice(1).map((m) => [m.version, m.have, m.withUrl]), [[3, 3, 1], [3, 2, 2]]);
    assertEquals(
      asked(origin, mark).filter((a) => a.includes("/parts/")).sort(),
      [`GET /parts/${added}`, `GET /parts/${cut}`].sort(),
    );
  });
});

/** An origin store of `cities` whose v1 has 105 parts of two records each. */
async function manyParts(root: string): Promise<void> {
  const writer = new StoreWriter(root);
  try {
    await writer.project("cities", { slug: "cities", title: "World cities", latestVersion: 1 });
    await writer.version("cities", 1, { parts: Array.from({ length: 105 }, (_, i) => ({ sql: citySql(i * 2, 2) })) });
  } finally {
    writer.close();
  }
}

Deno.test("pull: have= names at most 100 parts, those of the version asked for first; Client.manifest refuses 101", async () => {
  await withScene(async ({ origin, writer, store, client }) => {
    const first = await pull(client, "cities", { store });
    assertEquals([first.parts, first.downloaded, origin.app!.manifests[0].withUrl], [105, 105, 105]);
    const [added] = await writer.extend("cities", 1, 2, [{ sql: citySql(1000, 2) }]);
    // Part files of something else, newer than v1's: held, but of no use to v2, so not named before v1's parts.
    for (let i = 0; i < 30; i++) {
      await writeFile(join(store, "cities", "parts", `${(0xabc000 + i).toString(16).padStart(64, "0")}.parquet`), "x");
    }
    const mark = origin.seen.length;
    const second = await pull(client, "cities", { store });
    assertEquals([second.version, second.parts, second.downloaded], [2, 106, 1]);
    // One request: 100 named, the 5 held but not named and the new one with URLs; a second request would cost more.
    assertEquals(origin.app!.manifests.slice(1), [{ slug: "cities", version: 2, parts: 106, withUrl: 6, have: 100 }]);
    assertEquals(asked(origin, mark).filter((a) => a.includes("/parts/")), [`GET /parts/${added}`]);

    const shas = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(64, "0"));
    const before = origin.seen.length;
    const refused = await client.manifest("cities", 2, { have: shas }).then(() => null, (e) => e);
    assert(refused instanceof ValueError && /at most 100 part digests/.test(refused.message), String(refused));
    assertEquals(origin.seen.length, before, "nothing was sent");
    const bad = await client.manifest("cities", 2, { have: ["not-a-digest"] }).then(() => null, (e) => e);
    assert(bad instanceof ValueError);
  }, manyParts);
});
