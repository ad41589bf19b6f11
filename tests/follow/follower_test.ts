import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { Client } from "../../src/client/client.ts";
import { startFollower } from "../../src/follow/mod.ts";
import { pull } from "../../src/local/pull.ts";
import { writeTrustFile } from "../../src/trust/trust_file.ts";
import { startOrigin, type TestOrigin } from "../support/origin.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";

const SEEDS = ["44".repeat(32), "55".repeat(32), "66".repeat(32)];

interface Scene {
  origin: TestOrigin;
  originStore: string;
  store: string;
  trustFile: string;
  publish(version: number, records: number): Promise<void>;
}

async function withScene(fn: (scene: Scene) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: SEEDS[0] });
  const writer = new StoreWriter(originStore);
  try {
    await fn({
      origin,
      originStore,
      store: join(dir.path, "node"),
      trustFile: join(dir.path, "trust.json"),
      async publish(version, records) {
        // Eight parts, so that "at most four at a time" is put to the test.
        const per = Math.ceil(records / 8);
        const parts = Array.from({ length: 8 }, (_, i) => ({ sql: citySql(i * per, per) }));
        await writer.version("cities", version, { parts });
      },
    });
  } finally {
    writer.close();
    await origin.close();
    await dir.cleanup();
  }
}

/** A follower of `slugs` from the scene's origin, synced by hand (the interval is an hour). */
function followOrigin(
  scene: Scene,
  slugs: string[],
  log: ((line: string) => void) | null = null,
  keepVersions: number | null = null,
) {
  const client = new Client({ baseUrl: scene.origin.url, apiKey: "agent-key" });
  const trust = { trustFile: scene.trustFile, origin: scene.origin.url, required: false };
  return startFollower({ client, store: scene.store, trust, slugs, intervalMs: 3_600_000, log, keepVersions });
}

async function pinFirstKey(scene: Scene): Promise<void> {
  const key = scene.origin.app!.current()!;
  await writeTrustFile(scene.trustFile, {
    origins: {
      [scene.origin.url]: [{ kid: key.kid, alg: "Ed25519", publicKey: key.publicKey, status: "current", addedAt: "t" }],
    },
  });
}

Deno.test("follow: takes the newest version at start and each newer one after, parts at most four at a time and without the key", async () => {
  await withScene(async (scene) => {
    const log: string[] = [];
    const follower = await followOrigin(scene, ["cities", "missing"], (l) => log.push(l));
    try {
      await follower.syncNow();
      const first = follower.status();
      assertEquals([first.cities.version, first.cities.error, first.cities.from], [2, null, scene.origin.url]);
      assertEquals(first.cities.signature, "untrusted", "signed, but no key of the origin is pinned");
      assert(first.cities.at !== null);
      assertEquals(first.missing.version, null);
      assertMatch(first.missing.error!, /not found|no project|404|missing/i);
      assert(log.some((l) => l.startsWith("follow missing: ")), "the error is logged");

      await scene.publish(3, 4000);
      await follower.syncNow();
      assertEquals(follower.status().cities.version, 3);
      assert(
        scene.origin.maxPartsInFlight() <= 4,
        `at most four parts at once, saw ${scene.origin.maxPartsInFlight()}`,
      );
      assert(scene.origin.maxPartsInFlight() >= 2, "parts are fetched in parallel");
      const parts = scene.origin.seen.filter((s) => s.path.startsWith("/parts/"));
      assert(parts.length >= 8);
      assert(parts.every((s) => s.headers.authorization === undefined), "parts go by presigned URL, without the key");
      const meta = JSON.parse(await readFile(join(scene.store, "cities", "project.json"), "utf8"));
      assertEquals([meta.title, meta.local], ["World cities", false], "project.json refreshed");

      await rm(join(scene.originStore, "cities", "v3"), { recursive: true });
      await follower.syncNow();
      const back = follower.status().cities;
      assertEquals(back.version, 3);
      assertMatch(back.error!, /offers cities v2, below v3 held; kept v3/);
    } finally {
      await follower.stop();
    }
  });
});

Deno.test("follow with --keep-versions 1: each followed version prunes the one before and its parts", async () => {
  await withScene(async (scene) => {
    const log: string[] = [];
    const follower = await followOrigin(scene, ["cities"], (l) => log.push(l), 1);
    try {
      await follower.syncNow();
      await pull(new Client({ baseUrl: scene.origin.url, apiKey: "agent-key" }), "cities", {
        store: scene.store,
        version: 1,
      });
      await scene.publish(3, 4000);
      await follower.syncNow();
      assertEquals(follower.status().cities.version, 3);
      const names = (await readdir(join(scene.store, "cities"))).filter((n) => /^v\d+$/.test(n));
      assertEquals(names, ["v3"], "v1 and v2 were pruned");
      const v3 = JSON.parse(await readFile(join(scene.store, "cities", "v3", "manifest.json"), "utf8"));
      const listed = v3.parts.map((p: Json) => `${p.sha256}.parquet`).sort();
      assertEquals((await readdir(join(scene.store, "cities", "parts"))).sort(), listed);
      assert(log.some((l) => /^pruned cities: v2, v1 \(keeping the newest 1\)/.test(l)), log.join("\n"));
    } finally {
      await follower.stop();
    }
  });
});

Deno.test("follow --verify: the rotated key is learned through the chain; a revoked key's versions are refused, also after a restart", async () => {
  await withScene(async (scene) => {
    await pinFirstKey(scene);
    const client = new Client({ baseUrl: scene.origin.url, apiKey: "agent-key" });
    const trust = { trustFile: scene.trustFile, origin: scene.origin.url, required: true };
    const options = { client, store: scene.store, trust, slugs: ["cities"], intervalMs: 3_600_000, log: null };
    const follower = await startFollower(options);
    try {
      await follower.syncNow();
      assertEquals([follower.status().cities.version, follower.status().cities.signature], [2, "verified"]);
      const k1 = scene.origin.app!.current()!;
      const k2 = await scene.origin.app!.rotate(SEEDS[1]);
      await scene.publish(3, 800);
      await follower.syncNow();
      assertEquals([follower.status().cities.version, follower.status().cities.signature], [3, "verified"]);
      const pinned: Json[] = JSON.parse(await readFile(scene.trustFile, "utf8")).origins[scene.origin.url];
      assertEquals(pinned.find((k) => k.kid === k2.kid)?.endorsedBy, k1.kid, "the new key came through the chain");

      scene.origin.app!.revoke(k2.kid);
      await scene.origin.app!.rotate(SEEDS[2]);
      await scene.publish(4, 900);
      await follower.syncNow();
      const refused = follower.status().cities;
      assertEquals([refused.version, refused.signature], [3, "untrusted"]);
      assertMatch(refused.error!, /cities v4 is untrusted/);
      const after: Json[] = JSON.parse(await readFile(scene.trustFile, "utf8")).origins[scene.origin.url];
      assertEquals(after.find((k) => k.kid === k2.kid)?.revoked, true, "the revocation was learned from the origin");
    } finally {
      await follower.stop();
    }
    const restarted = await startFollower(options);
    try {
      await restarted.syncNow();
      assertEquals([restarted.status().cities.version, restarted.status().cities.signature], [3, "untrusted"]);
    } finally {
      await restarted.stop();
    }
  });
});

Deno.test("follow: a local project is never followed; /healthz shows the follow status; creating a followed slug is 409", async () => {
  await withScene(async (scene) => {
    const writer = new StoreWriter(scene.store);
    await writer.project("notes", { slug: "notes", local: true });
    writer.close();
    const follower = await followOrigin(scene, ["cities", "notes"]);
    const node = await serveNode({ store: scene.store, host: "127.0.0.1", port: 0, token: null, follow: follower });
    try {
      await follower.syncNow();
      const health: Json = await (await fetch(`${node.url}/healthz`)).json();
      assertEquals(health.follow.cities.version, 2);
      assertEquals(Object.keys(health.follow.cities).sort(), [
        "at",
        "behind",
        "error",
        "failures",
        "from",
        "signature",
        "syncedAt",
        "version",
      ]);
      assertEquals([health.follow.cities.syncedAt, health.follow.cities.behind], [health.follow.cities.at, 0]);
      // The first round (at start) and the one asked for may both have run: each failed.
      assertEquals(health.follow.notes.syncedAt, null);
      assert(health.follow.notes.failures >= 1 && health.follow.notes.failures <= 2, `${health.follow.notes.failures}`);
      assertMatch(
        health.follow.notes.error,
        /notes is a local project on this node; a local project cannot be followed/,
      );
      assertEquals(health.followFailing, ["notes"], "followFailing names the slugs whose last sync failed");
      assertEquals(health.keepVersions, null);
      assertEquals(health.incomplete, []);
      const created = await fetch(`${node.url}/projects`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          slug: "cities",
          title: "Cities again",
          readme: "A local project under a followed name.",
          schemaDef: { fields: [{ name: "x", type: "string" }] },
        }),
      });
      assertEquals(created.status, 409);
      assertMatch((await created.json()).error, /cities is followed from/);
      const data: Json = await (await fetch(`${node.url}/projects/cities/data?limit=1`)).json();
      assertEquals(data.version, 2);
    } finally {
      await follower.stop();
      await node.shutdown();
    }
  });
});

Deno.test("follow from an upstream node: its token goes there, the agent key never does; signatures still verify against the origin", async () => {
  await withScene(async (scene) => {
    await pinFirstKey(scene);
    const mirrorStore = join(scene.originStore, "..", "mirror");
    await pull(new Client({ baseUrl: scene.origin.url, apiKey: "agent-key" }), "cities", { store: mirrorStore });
    const mirror = await serveNode({ store: mirrorStore, host: "127.0.0.1", port: 0, token: "mirror-token" });
    // A recording stand-in in front of the mirror: what reaches the upstream is seen.
    let proxyUrl = "";
    const seen: { path: string; auth: string | null }[] = [];
    const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
      const url = new URL(req.url);
      seen.push({ path: url.pathname, auth: req.headers.get("authorization") });
      const res = await fetch(`${mirror.url}${url.pathname}${url.search}`, { headers: req.headers });
      const text = url.pathname.startsWith("/parts/") ? null : (await res.text()).replaceAll(mirror.url, proxyUrl);
      return new Response(text ?? res.body, { status: res.status, headers: res.headers });
    });
    proxyUrl = `http://127.0.0.1:${proxy.addr.port}`;
    const client = new Client({ baseUrl: proxyUrl, apiKey: "mirror-token", requireKey: false });
    const trust = { trustFile: scene.trustFile, origin: scene.origin.url, required: true };
    const follower = await startFollower({
      client,
      store: scene.store,
      trust,
      slugs: ["cities"],
      intervalMs: 3_600_000,
      log: null,
    });
    try {
      await follower.syncNow();
      const status = follower.status().cities;
      assertEquals([status.version, status.signature, status.error, status.from], [2, "verified", null, proxyUrl]);
      assert(seen.some((s) => s.path.startsWith("/parts/")), "parts came from the upstream");
      assert(seen.every((s) => s.auth !== "Bearer agent-key"), "the agent key never went upstream");
      assert(seen.filter((s) => !s.path.startsWith("/parts/")).every((s) => s.auth === "Bearer mirror-token"));
      assert(seen.filter((s) => s.path.startsWith("/parts/")).every((s) => s.auth === null), "part URLs need no token");
    } finally {
      await follower.stop();
      await proxy.shutdown();
      await mirror.shutdown();
    }
  });
});
