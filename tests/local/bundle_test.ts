import { assert, assertEquals, assertMatch, assertRejects } from "../support/assert.ts";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle, saveBundle } from "../../src/local/bundle.ts";
import { BundleError } from "../../src/client/errors.ts";
import { members, rewrite } from "../support/bundle_edit.ts";
import { runCli } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";

Deno.test("a saved bundle loads into another store as the same version; --check writes nothing", async () => {
  const dir = await tempDir();
  try {
    const from = join(dir.path, "from");
    await citiesStore(from);
    const file = join(dir.path, "cities-v2.svc");
    const header = await saveBundle(from, "cities", null, file);
    assertEquals([header.format, header.project, header.version, header.records, header.parts], [
      "svc-bundle/1",
      "cities",
      2,
      600,
      3,
    ]);
    const names = (await members(file)).map(([n]) => n);
    assertEquals(names.slice(0, 3), ["svc-bundle.json", "project.json", "manifest.json"]);
    assert(names.slice(3).every((n) => /^parts\/[0-9a-f]{64}\.parquet$/.test(n)));
    const manifest = JSON.parse(new TextDecoder().decode((await members(file))[2][1]));
    assertEquals(manifest.signature.origin, "https://origin.example", "the signature travels in the bundle");
    const to = join(dir.path, "to");
    const checked = await loadBundle(file, to, { check: true });
    assertEquals([checked.written, checked.newParts], [false, 3]);
    assertEquals(await readdir(to).catch(() => []), [], "--check writes nothing");
    const loaded = await loadBundle(file, to);
    assertEquals([loaded.written, loaded.newParts], [true, 3]);
    for (const part of await readdir(join(from, "cities", "parts"))) {
      if (!(await readdir(join(to, "cities", "parts"))).includes(part)) continue;
      assertEquals(
        await readFile(join(to, "cities", "parts", part)),
        await readFile(join(from, "cities", "parts", part)),
      );
    }
    const onDisk = JSON.parse(await readFile(join(to, "cities", "v2", "manifest.json"), "utf8"));
    assertEquals([onDisk.loaded, onDisk.loadedFrom, onDisk.parts.length], [true, file, 3]);
    assertEquals((await readdir(to)).filter((n) => n.startsWith(".")), [], "no staging left");
  } finally {
    await dir.cleanup();
  }
});

Deno.test("a bundle with a flipped byte, an extra member or a mismatched header is refused, the store unchanged", async () => {
  const dir = await tempDir();
  try {
    const from = join(dir.path, "from");
    await citiesStore(from);
    const good = join(dir.path, "good.svc");
    await saveBundle(from, "cities", 1, good);
    const cases: [string, (m: [string, Uint8Array][]) => [string, Uint8Array][], RegExp][] = [
      [
        "flipped",
        (m) => m.map(([n, b], i) => [n, i === 3 ? b.map((x, j) => (j === 100 ? x ^ 1 : x)) : b]),
        /does not match its SHA-256/,
      ],
      ["extra", (m) => [...m, ["notes.txt", new Uint8Array([1])]], /member it may not: "notes.txt"/],
      ["traversal", (m) => [...m, ["../evil.parquet", new Uint8Array([1])]], /member it may not/],
      ["twice", (m) => [...m, m[0]], /twice/],
      [
        "header",
        (m) =>
          m.map(([n, b]) => [
            n,
            n === "svc-bundle.json"
              ? new TextEncoder().encode(new TextDecoder().decode(b).replace('"version": 1', '"version": 2'))
              : b,
          ]),
        /manifest does not match its header|disagree/,
      ],
      [
        "records",
        (m) =>
          m.map(([n, b]) => [
            n,
            n === "manifest.json"
              ? new TextEncoder().encode(new TextDecoder().decode(b).replace('"records": 150', '"records": 151'))
              : b,
          ]),
        /SHA-256 its header gives/,
      ],
      ["missing", (m) => m.filter(([n], i) => !(n.startsWith("parts/") && i === 3)), /missing from the bundle/],
    ];
    for (const [name, change, message] of cases) {
      const file = join(dir.path, `${name}.svc`);
      await writeFile(file, await readFile(good));
      await rewrite(file, change);
      const to = join(dir.path, `to-${name}`);
      const e = await assertRejects(() => loadBundle(file, to), message);
      assert(e instanceof BundleError, name);
      const left = await readdir(to).catch(() => [] as string[]);
      assertEquals(left.filter((n) => n !== "cities"), [], `${name}: no staging left`);
      assertEquals(
        (await readdir(join(to, "cities")).catch(() => [] as string[])).filter((n) => n.startsWith("v")),
        [],
        name,
      );
    }
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc save and svc load from the command line", async () => {
  const dir = await tempDir();
  try {
    const from = join(dir.path, "from");
    await citiesStore(from);
    const out = join(dir.path, "c.svc");
    const saved = await runCli(["save", "cities@1", "-o", out, "--store", from]);
    assertEquals([saved.code, saved.stdout], [0, `cities v1: 250 records in 2 parts -> ${out}\n`], saved.stderr);
    const check = await runCli(["load", out, "--store", join(dir.path, "to"), "--check"]);
    assertMatch(check.stdout, /cities v1, 250 records in 2 parts: whole \(nothing written\)/);
    const load = await runCli(["load", out, "--store", join(dir.path, "to")]);
    assertEquals(load.code, 0, load.stderr);
    const bad = await runCli(["load", join(dir.path, "nope.svc"), "--store", join(dir.path, "to")]);
    assertEquals(bad.code, 1);
    assertMatch(bad.stderr, /^error: /);
  } finally {
    await dir.cleanup();
  }
});

Deno.test("a loaded copy's project.json keeps only the reference's project keys: never local, no stray keys", async () => {
  const dir = await tempDir();
  try {
    const from = join(dir.path, "from");
    await citiesStore(from);
    const file = join(dir.path, "cities.svc");
    await saveBundle(from, "cities", null, file);
    await rewrite(file, (m) =>
      m.map(([name, body]) => {
        if (name !== "project.json") return [name, body];
        const meta = JSON.parse(new TextDecoder().decode(body));
        const extra = { ...meta, local: true, slug: "other", token: "s3cret", stars: 99, maintainer: "someone" };
        return [name, new TextEncoder().encode(JSON.stringify(extra))];
      }));
    const to = join(dir.path, "to");
    await loadBundle(file, to);
    const kept = JSON.parse(await readFile(join(to, "cities", "project.json"), "utf8"));
    assertEquals(Object.keys(kept).sort(), [
      "access",
      "createdAt",
      "license",
      "local",
      "maintainer",
      "readme",
      "schemaDef",
      "slug",
      "tags",
      "title",
      "visibility",
    ]);
    assertEquals([kept.slug, kept.local, kept.maintainer], ["cities", false, "someone"]);
  } finally {
    await dir.cleanup();
  }
});

Deno.test("svc save pulls a version the store lacks --workers parts at once (default 4) into --cache DIR", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  const origin = await startOrigin({ store: originStore });
  try {
    await citiesStore(originStore);
    const base = ["--base-url", origin.url, "--api-key", "agent-key", "--no-progress"];
    const manifest = await (await fetch(`${origin.url}/projects/cities/manifest?version=2`, {
      headers: { authorization: "Bearer agent-key" },
    })).json() as { parts: { sha256: string; url: string }[] };
    assertEquals(manifest.parts.length, 3);
    /** Every part held back `ms` before it is answered; resolves with when each part was asked for. */
    const slowParts = async (ms: number) => {
      for (const part of manifest.parts) {
        const body = await readFile(join(originStore, "cities", "parts", `${part.sha256}.parquet`));
        origin.fault(new URL(part.url).pathname, { body, delayMs: ms });
      }
      const asked: number[] = [];
      const parts = new URL(manifest.parts[0].url).pathname.replace(/[^/]+$/, "");
      // Noted as each request is recorded: requests that arrive together are each seen.
      await origin.nextRequest((s) => s.path.startsWith(parts) && asked.push(Date.now()) === 3);
      return asked;
    };
    const together = slowParts(1000);
    const first = await runCli([
      "save",
      "cities",
      "--version",
      "2",
      "--cache",
      join(dir.path, "c1"),
      "-o",
      join(dir.path, "a.svc"),
      ...base,
    ]);
    assertEquals(
      [first.code, first.stdout],
      [0, `cities v2: 600 records in 3 parts -> ${join(dir.path, "a.svc")}\n`],
      first.stderr,
    );
    const atOnce = await together;
    assert(atOnce[2] - atOnce[0] < 1000, "by default the three parts are asked for at once, before any is answered");
    assertEquals((await readdir(join(dir.path, "c1", "cities", "parts"))).length, 3, "pulled into --cache");

    const oneByOne = slowParts(400);
    const single = await runCli([
      "save",
      "cities@2",
      "--workers",
      "1",
      "--cache",
      join(dir.path, "c2"),
      "-o",
      join(dir.path, "b.svc"),
      ...base,
    ]);
    assertEquals(single.code, 0, single.stderr);
    const inTurn = await oneByOne;
    assert(
      inTurn[1] - inTurn[0] >= 400 && inTurn[2] - inTurn[1] >= 400,
      "--workers 1: each part once the one before is in",
    );
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
