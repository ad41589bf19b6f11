import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { cp, mkdir, readFile, rename, rm, symlink, truncate, unlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openStore } from "../../src/store/mod.ts";
import { FOLDER_LOOK_MS } from "../../src/store/store.ts";
import { wroteToStore } from "../../src/store/_writes_seen.ts";
import { rebuildJournal } from "../../src/store/journal.ts";
import { LOOK_STANDS_MS } from "../../src/store/_recent_looks.ts";
import { foldCount } from "../../src/writes/mod.ts";
import { withNode } from "../support/node.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

async function fixtureStore(fn: (root: string, fixture: Awaited<ReturnType<typeof citiesStore>>) => Promise<void>) {
  const dir = await tempDir();
  try {
    await fn(dir.path, await citiesStore(dir.path));
  } finally {
    await dir.cleanup();
  }
}

Deno.test("a whole store lists its projects and versions newest first", async () => {
  await fixtureStore(async (root) => {
    const store = openStore(root);
    assertEquals(await store.slugs(), ["bare", "cities"]);
    const cities = await store.project("cities");
    assertEquals(cities?.versions.newestFirst(), [2, 1]);
    assertEquals(cities?.incomplete, []);
    assertEquals(cities?.meta?.title, "World cities");
    assertEquals((await store.project("bare"))?.meta, null);
    const v2 = await store.version("cities", 2);
    assertEquals(v2?.parts.length, 3);
    assert(v2?.parts.every((p) => p.path.startsWith(root)));
  });
});

Deno.test("readers asking for a version at once share one look at its parts on disk", async () => {
  await fixtureStore(async (root) => {
    const store = openStore(root);
    const at = await Promise.all(Array.from({ length: 20 }, () => store.version("cities", 2)));
    assert(at[0] !== null);
    assertEquals(new Set(at).size, 1, "each reader checked the parts on its own");
    // Once checked, a version is not looked at again for two seconds: the same answer, no second look.
    assert((await store.version("cities", 2)) === at[0]);
  });
});

Deno.test("a version with a missing, short, long or symlinked part does not exist for readers", async () => {
  const cases: [string, (path: string) => Promise<void>, RegExp][] = [
    ["missing", (p) => unlink(p), /is missing/],
    ["short", (p) => truncate(p, 10), /has 10 bytes, the manifest lists \d+/],
    ["long", async (p) => await writeFile(p, new Uint8Array([...await readFile(p), 0])), /has \d+ bytes/],
    ["symlink", async (p) => {
      const real = `${p}.real`;
      await writeFile(real, await readFile(p));
      await unlink(p);
      await symlink(real, p);
    }, /not a regular file/],
  ];
  for (const [name, damage, reason] of cases) {
    await fixtureStore(async (root, fixture) => {
      await damage(fixture.v2.partPaths[1]);
      const store = openStore(root);
      const cities = await store.project("cities");
      assertEquals(cities?.versions.newestFirst(), [1], name);
      assertEquals(cities?.incomplete.length, 1);
      assertEquals(cities?.incomplete[0].version, 2);
      assertMatch(cities!.incomplete[0].reason, reason, name);
      assertEquals(await store.version("cities", 2), null);
    });
  }
});

Deno.test("a manifest that is not JSON, names another version or project, or lists bad parts is refused", async () => {
  const bad: [string, RegExp][] = [
    ["{not json", /not valid JSON/],
    ["[]", /not a JSON object/],
    ['{"version": 4, "parts": []}', /names version 4, not 3/],
    ['{"project": "other", "parts": []}', /names project "other"/],
    ['{"parts": [{"sha256": "../../etc/passwd", "bytes": 1}]}', /no valid sha256/],
    [`{"parts": [{"sha256": "${"a".repeat(64)}", "bytes": -1}]}`, /no valid byte size/],
    ['{"parts": {}}', /no parts list/],
  ];
  for (const [text, reason] of bad) {
    await fixtureStore(async (root) => {
      await mkdir(join(root, "cities", "v3"));
      await writeFile(join(root, "cities", "v3", "manifest.json"), text);
      const cities = await openStore(root).project("cities");
      assertEquals(cities?.versions.newestFirst(), [2, 1]);
      assertMatch(cities!.incomplete[0].reason, reason, text);
    });
  }
});

Deno.test("an empty version directory (a pull in progress) is reported, not served", async () => {
  await fixtureStore(async (root) => {
    await mkdir(join(root, "cities", "v3"));
    const cities = await openStore(root).project("cities");
    assertEquals(cities?.versions.newestFirst(), [2, 1]);
    assertEquals(cities?.incomplete, [{ project: "cities", version: 3, reason: "manifest.json is missing" }]);
  });
});

Deno.test("invalid slugs and stray directories never become projects", async () => {
  await fixtureStore(async (root) => {
    await mkdir(join(root, "Upper"));
    await mkdir(join(root, ".hidden", "v1"), { recursive: true });
    await mkdir(join(root, "empty-dir"));
    await writeFile(join(root, "file.json"), "{}");
    const store = openStore(root);
    assertEquals(await store.slugs(), ["bare", "cities"]);
    for (const slug of ["../cities", "cities/../bare", "Upper", ".hidden", "a", "-x-", "x".repeat(61)]) {
      assertEquals(await store.project(slug), null, slug);
    }
    assertEquals(await store.version("cities", 0), null);
    assertEquals(await store.version("cities", 1.5), null);
  });
});

Deno.test("over HTTP, an incomplete version is 404 and /healthz says which one and why", async () => {
  await withNode({}, async ({ url, fixture }) => {
    await unlink(fixture.v2.partPaths[2]);
    await new Promise((r) => setTimeout(r, 2100)); // past the store's recheck interval
    const data = await fetch(`${url}/projects/cities/data?version=2`);
    assertEquals(data.status, 404);
    assertEquals(await data.json(), { error: "version 2 is not on this node (newest 1, 1 version held)" });
    const latest: Json = await (await fetch(`${url}/projects/cities/data?limit=1`)).json();
    assertEquals(latest.version, 1, "the newest whole version is served instead");
    const health: Json = await (await fetch(`${url}/healthz`)).json();
    assertEquals(health.versions, 2);
    assertEquals(health.incomplete.length, 1);
    assertEquals([health.incomplete[0].project, health.incomplete[0].version], ["cities", 2]);
    assertMatch(health.incomplete[0].reason, /is missing/);
  });
});

Deno.test("foldCount folds the tail run under 1 MiB holding at most twice what was gathered", () => {
  const p = (records: number, bytes = records * 10) => ({ records, bytes });
  assertEquals(foldCount([], 500), 0);
  assertEquals(foldCount([p(500)], 500), 1);
  assertEquals(foldCount([p(1500)], 500), 0, "more than twice the batch");
  assertEquals(foldCount([p(1500), p(500)], 500), 2, "the gathered records grow as the run is taken");
  assertEquals(foldCount([p(100, 2 * 1024 * 1024)], 500), 0, "parts of 1 MiB or more stay");
  assertEquals(foldCount([{ bytes: 10 }], 500), 0, "a part of unknown size in records stays");
  const parts: { records: number; bytes: number }[] = [];
  let written = 0;
  for (let batch = 0; batch < 120; batch++) {
    const folded = parts.splice(parts.length - foldCount(parts, 500));
    const part = p(500 + folded.reduce((a, x) => a + x.records, 0));
    parts.push(part);
    written += part.records;
  }
  assert(written / (120 * 500) <= Math.log2(120) + 1, `records rewritten ${written / 60000} times each`);
  assert(parts.length <= Math.log2(120) + 1, `${parts.length} parts`);
});

Deno.test("the store's listing shows at its next call what another process did: a project made, a version committed, a project taken away", async () => {
  await fixtureStore(async (root) => {
    await rebuildJournal(root, "cities");
    let now = 0;
    const store = openStore(root, () => now);
    // Each call comes once the last look at the store folder is up (a monitor polling faster shares it; see below).
    const listed = async () => {
      now += FOLDER_LOOK_MS;
      return Object.fromEntries((await store.projects()).map((p) => [p.slug, p.versions.count]));
    };
    const before = await listed();
    assertEquals(before.cities, 2);
    assertEquals(await listed(), before, "the same while nothing changed");
    // Done with the file system alone, as another process would: this process's own writes are not what is noticed.
    await cp(join(root, "cities"), join(root, ".towns.tmp"), { recursive: true });
    await rename(join(root, ".towns.tmp"), join(root, "towns"));
    assertEquals(await listed(), { ...before, towns: 2 });
    await rm(join(root, "towns"), { recursive: true });
    assertEquals(await listed(), before, "a project taken away");
    await settle(root);
    assertEquals(await listed(), before);
    // A store writer in another process: the version's folder renamed in, then the store folder stamped.
    await cp(join(root, "cities", "v2"), join(root, "cities", ".v3.tmp"), { recursive: true });
    await inAnotherProcess(
      `import { rename } from "node:fs/promises";
       import { wroteToStore } from ${JSON.stringify(import.meta.resolve("../../src/store/_writes_seen.ts"))};
       await rename(${JSON.stringify(join(root, "cities", ".v3.tmp"))}, ${JSON.stringify(join(root, "cities", "v3"))});
       wroteToStore(${JSON.stringify(root)});`,
    );
    assertEquals((await listed()).cities, 3, "a version committed by a store writer in another process");
  });
});

Deno.test("one look at the store folder stands a moment for the calls after it: another process's project shows once it is up, this process's write at once", async () => {
  await fixtureStore(async (root) => {
    await rebuildJournal(root, "cities");
    await settle(root);
    let now = 0;
    const store = openStore(root, () => now);
    const slugs = async () => (await store.projects()).map((p) => p.slug);
    const before = await slugs();
    assertEquals(before, ["bare", "cities"]);
    await cp(join(root, "cities"), join(root, ".towns.tmp"), { recursive: true });
    await rename(join(root, ".towns.tmp"), join(root, "towns"));
    now += FOLDER_LOOK_MS / 2;
    assertEquals(await slugs(), before, "the look stands");
    now += FOLDER_LOOK_MS / 2;
    assertEquals(await slugs(), ["bare", "cities", "towns"], "its moment is up: looked at again");
    await settle(root);
    assertEquals(await slugs(), ["bare", "cities", "towns"]);
    await rm(join(root, "towns"), { recursive: true });
    wroteToStore(root);
    assertEquals(await slugs(), before, "this process wrote to the store: looked at again at once");
  });
});

Deno.test("a version moved into a project's folder by hand shows in the store's listing within a second, and in the project at once", async () => {
  await fixtureStore(async (root) => {
    await rebuildJournal(root, "cities");
    await settle(root);
    const store = openStore(root);
    const listed = async () => Object.fromEntries((await store.projects()).map((p) => [p.slug, p.versions.count]));
    const listedAt = performance.now();
    const before = await listed();
    assertEquals(before.cities, 2);
    await cp(join(root, "cities", "v2"), join(root, "cities", ".v3.tmp"), { recursive: true });
    await rename(join(root, "cities", ".v3.tmp"), join(root, "cities", "v3"));
    assertEquals((await store.project("cities"))?.versions.count, 3, "the project looks at its folder");
    const standing = await listed();
    // The listing kept stands for a second at most: the machine may have been slower than that since it was made.
    if (performance.now() - listedAt < LOOK_STANDS_MS) {
      assertEquals(standing, before, "the list kept, no look at each folder");
    }
    await new Promise((r) => setTimeout(r, LOOK_STANDS_MS));
    assertEquals((await listed()).cities, 3, "a second later");
  });
});

/** Sets the store folder's time a minute back, as if nothing had changed it lately. */
async function settle(root: string): Promise<void> {
  const longAgo = new Date(Date.now() - 60_000);
  await utimes(root, longAgo, longAgo);
}

/** Runs `code` (a module) in a Deno process of its own. */
async function inAnotherProcess(code: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-lock", code],
    stdout: "null",
    stderr: "piped",
  })
    .output();
  assert(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("a journal's project shows a version committed without its journal line, and loses one taken away, while its folder is still", async () => {
  await fixtureStore(async (root) => {
    await rebuildJournal(root, "cities");
    const project = join(root, "cities");
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(project, longAgo, longAgo);
    const store = openStore(root);
    assertEquals((await store.project("cities"))?.versions.newestFirst(), [2, 1]);
    assertEquals((await store.project("cities"))?.versions.newestFirst(), [2, 1], "the same while nothing changed");
    // A writer killed between its commit (the rename of the version's folder) and its journal line.
    await cp(join(project, "v2"), join(project, ".v3.tmp"), { recursive: true });
    await rename(join(project, ".v3.tmp"), join(project, "v3"));
    assertEquals((await store.project("cities"))?.versions.newestFirst(), [3, 2, 1]);
    await utimes(project, longAgo, longAgo);
    assertEquals((await store.project("cities"))?.versions.newestFirst(), [3, 2, 1]);
    await rm(join(project, "v3"), { recursive: true });
    assertEquals((await store.project("cities"))?.versions.newestFirst(), [2, 1], "the newest version taken away");
  });
});
