/**
 * Bounded growth: --keep-versions for local and followed projects (at start,
 * after merges, after followed versions; parts being read are left for a
 * later prune), the sweep of temporary files a crash leaves, and the export
 * cache bounded by bytes (nothing written on a read-only node).
 */
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { serveNode } from "../../server.ts";
import { leaseParts, pruneLocked } from "../../src/store/mod.ts";
import { withNode } from "../support/node.ts";
import { batch, NOTES, post } from "../support/local_project.ts";
import { citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import { runCli } from "../support/cli_process.ts";

async function versionDirs(store: string, slug: string): Promise<number[]> {
  return (await readdir(join(store, slug))).filter((n) => /^v\d+$/.test(n)).map((n) => Number(n.slice(1)))
    .sort((a, b) => a - b);
}

/** The part files versions list: their manifests' parts and, for versions merged here, their change files. */
async function listedParts(url: string, slug: string, versions: number[], store?: string): Promise<Set<string>> {
  const listed = new Set<string>();
  for (const v of versions) {
    const m: Json = await (await fetch(`${url}/projects/${slug}/manifest?version=${v}`)).json();
    for (const p of m.parts) listed.add(`${p.sha256}.parquet`);
    if (store === undefined) continue;
    const manifest = JSON.parse(await readFile(join(store, slug, `v${v}`, "manifest.json"), "utf8"));
    if (manifest.change) listed.add(`${manifest.change.sha256}.parquet`);
  }
  return listed;
}

async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

Deno.test("--keep-versions: after each merge only the newest N versions and the parts they list stay; pruned ones are 404", async () => {
  await withNode({ keepVersions: 2 }, async ({ url, store }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    for (let i = 0; i < 7; i++) assertEquals((await post(url, "/projects/notes/contribute", batch(i))).status, 201);
    assertEquals(await versionDirs(store, "notes"), [6, 7]);
    const parts = (await readdir(join(store, "notes", "parts"))).sort();
    assertEquals(
      parts,
      [...await listedParts(url, "notes", [6, 7], store)].sort(),
      "no part only a pruned version listed",
    );
    const gone = await fetch(`${url}/projects/notes/data?version=3`);
    assertEquals(gone.status, 404);
    assertEquals(await gone.json(), { error: "version 3 is not on this node (newest 7, 2 versions held)" });
    const all: Json = await (await fetch(`${url}/projects/notes/data?limit=1000`)).json();
    assertEquals(all.count, 70, "the newest version still holds every record");
    const health: Json = await (await fetch(`${url}/healthz`)).json();
    assertEquals(health.keepVersions, 2);
  });
});

Deno.test("--keep-versions prunes at start; a part being read stays until a later prune", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    for (let v = 1; v <= 5; v++) await w.version("cities", v, { parts: [{ sql: citySql(0, 10 * v) }] });
    w.close();
    const serving = await serveNode({
      store: dir.path,
      host: "127.0.0.1",
      port: 0,
      token: null,
      keepVersions: 3,
      log: null,
    });
    await serving.shutdown();
    assertEquals(await versionDirs(dir.path, "cities"), [3, 4, 5]);
    assertEquals((await readdir(join(dir.path, "cities", "parts"))).length, 3);

    const v3 = JSON.parse(await readFile(join(dir.path, "cities", "v3", "manifest.json"), "utf8"));
    const oldest = join(dir.path, "cities", "parts", `${v3.parts[0].sha256}.parquet`);
    const release = leaseParts([oldest]);
    const kept = await pruneLocked(dir.path, "cities", 1);
    assertEquals(kept.busy, 1, "a part a request is reading is left");
    assert(await stat(oldest).then(() => true, () => false));
    release();
    const later = await pruneLocked(dir.path, "cities", 1);
    assertEquals([later.busy, later.parts], [0, 1], "the next prune takes it");
    assertEquals((await readdir(join(dir.path, "cities", "parts"))).length, 1);
  } finally {
    w.close();
    await dir.cleanup();
  }
});

Deno.test("svc serve --keep-versions takes 1 or more (env SVC_NODE_KEEP_VERSIONS); 0 is a usage error", async () => {
  for (const [args, env] of [[["--keep-versions", "0"], {}], [[], { SVC_NODE_KEEP_VERSIONS: "-2" }]] as const) {
    const run = await runCli(["serve", "--port", "0", ...args], env);
    assertEquals(run.code, 2, run.stderr);
    assertMatch(run.stderr, /^error: --keep-versions must be an integer from 1/);
  }
});

Deno.test("temporary files a killed writer leaves are swept by the next write and by the next start", async () => {
  await withNode({}, async ({ url, store }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    assertEquals((await post(url, "/projects/notes/contribute", batch(0), { "idempotency-key": "k1" })).status, 201);
    const dir = join(store, "notes");
    // Where a writer makes its temporaries: index/ (parts, answers, the index files) and the next version's staging.
    const written = async () => {
      await writeFile(join(dir, "index", `.idempotency.json.tmp-${crypto.randomUUID()}`), "{");
      await writeFile(join(dir, "index", `.part.tmp-${crypto.randomUUID()}.parquet`), "PAR1");
      await writeFile(join(dir, "index", `.${crypto.randomUUID()}.json.tmp-${crypto.randomUUID()}`), "{");
      await mkdir(join(dir, ".v2.tmp"));
      await writeFile(join(dir, ".v2.tmp", "manifest.json"), "{");
    };
    // What older releases, a killed pull or a killed prune leave: swept when the node starts.
    const older = async () => {
      await writeFile(join(dir, "contributions", `.x.json.tmp-${crypto.randomUUID()}`), "{");
      await writeFile(join(dir, `.project.json.tmp-${crypto.randomUUID()}`), "{");
      await writeFile(join(dir, "parts", `.tmp-${crypto.randomUUID()}.parquet`), "PAR1");
      await mkdir(join(dir, `.v9.tmp-${crypto.randomUUID()}`));
      await mkdir(join(dir, `.v1.pruned-${crypto.randomUUID()}`));
    };
    const temps = async () => {
      const found: string[] = [];
      for (const sub of ["", "index", "contributions", "parts"]) {
        found.push(...(await readdir(join(dir, sub))).filter((n) => /\.(tmp|pruned)(-|$)/.test(n)));
      }
      return found.sort();
    };
    await written();
    assertEquals((await temps()).length, 4);
    assertEquals((await post(url, "/projects/notes/contribute", batch(1))).status, 201);
    assertEquals(await temps(), [], "swept by the next write");
    await written();
    await older();
    const oldStatistics = join(dir, "index", `.statistics.json.tmp-${crypto.randomUUID()}`);
    const newStatistics = join(dir, "index", `.statistics.json.tmp-${crypto.randomUUID()}`);
    await writeFile(oldStatistics, "{");
    await utimes(oldStatistics, new Date(Date.now() - 86_400_000), new Date(Date.now() - 86_400_000));
    await writeFile(newStatistics, "{");
    const again = await serveNode({ store, host: "127.0.0.1", port: 0, token: null, log: null });
    await again.shutdown();
    assertEquals(await temps(), [basename(newStatistics)], "swept at start, but a statistics file being written");
  });
});

Deno.test("the export cache is bounded by bytes, least recently used first; a read-only node writes nothing", async () => {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    for (let v = 1; v <= 3; v++) await w.version("cities", v, { parts: [{ sql: citySql(0, 4000 * v) }] });
    w.close();
    const sizes: number[] = [];
    {
      const probe = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null, log: null });
      for (let v = 1; v <= 3; v++) {
        sizes.push((await (await fetch(`${probe.url}/projects/cities/export?version=${v}`)).arrayBuffer()).byteLength);
      }
      await probe.shutdown();
    }
    const exports = join(dir.path, "cities", "exports");
    const cap = sizes[1] + sizes[2] + 100;
    await rm(exports, { recursive: true });
    const before = await tree(dir.path);
    const readOnly = await serveNode({
      store: dir.path,
      host: "127.0.0.1",
      port: 0,
      token: null,
      readOnly: true,
      log: null,
    });
    try {
      const res = await fetch(`${readOnly.url}/projects/cities/export?version=3`);
      assertEquals([res.status, (await res.arrayBuffer()).byteLength], [200, sizes[2]]);
      assertEquals(await tree(dir.path), before, "a read-only node writes nothing into the store");
    } finally {
      await readOnly.shutdown();
    }
    const bounded = await serveNode({
      store: dir.path,
      host: "127.0.0.1",
      port: 0,
      token: null,
      exportCache: cap,
      log: null,
    });
    try {
      const get = async (v: number) => {
        const res = await fetch(`${bounded.url}/projects/cities/export?version=${v}`);
        assertEquals((await res.arrayBuffer()).byteLength, sizes[v - 1]);
      };
      await get(1);
      await get(2);
      await new Promise((r) => setTimeout(r, 20));
      await get(1);
      await new Promise((r) => setTimeout(r, 20));
      await get(3);
      const kept = (await readdir(exports)).map((n) => n.split("-")[0]).sort();
      assertEquals(kept, ["v1", "v3"], "v2, least recently used, went to make room");
      let total = 0;
      for (const n of await readdir(exports)) total += (await stat(join(exports, n))).size;
      assert(total <= cap, `${total} bytes kept under a cap of ${cap}`);
    } finally {
      await bounded.shutdown();
    }
  } finally {
    w.close();
    await dir.cleanup();
  }
});
