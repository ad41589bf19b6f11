import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../server.ts";
import { Client } from "../../src/client/client.ts";
import { BundleError, ValueError } from "../../src/client/errors.ts";
import { pull } from "../../src/local/pull.ts";
import { pullJsonLines } from "../../src/local/pull_jsonl.ts";
import { runCli, spawnCli } from "../support/cli_process.ts";
import { withNode } from "../support/node.ts";
import { startOrigin, type TestOrigin } from "../support/origin.ts";
import { citiesStore, StoreWriter, tempDir } from "../support/store_fixture.ts";

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Queues, once, the manifest of `slug` v`version` listing `parts` (URLs on the origin) and its project answer. */
function offerVersion(origin: TestOrigin, slug: string, version: number, parts: { sha256: string; bytes: number }[]) {
  const manifest = {
    format: "svc-dataset-manifest/1",
    project: slug,
    version,
    parts: parts.map((p) => ({ ...p, url: `${origin.url}/parts/${slug}/${p.sha256}.parquet` })),
    totals: { records: parts.length },
  };
  origin.fault(`/projects/${slug}/manifest`, { body: JSON.stringify(manifest) });
  origin.fault(`/projects/${slug}`, { body: JSON.stringify({ slug, title: slug }) });
}

Deno.test("pull copies a version into a store that a node then serves the same, parts shared and never fetched twice", async () => {
  await withNode({ token: "origin-token" }, async ({ url }) => {
    const dir = await tempDir();
    try {
      const client = new Client({ baseUrl: url, apiKey: "origin-token" });
      const first = await pull(client, "cities", { store: dir.path });
      assertEquals([first.version, first.records, first.parts, first.downloaded], [2, 600, 3, 3]);
      assertEquals(first.signedBy, "https://origin.example");
      const again = await pull(client, "cities", { store: dir.path, version: 2 });
      assertEquals(again.downloaded, 0, "parts already held are not fetched again");
      const v1 = await pull(client, "cities", { store: dir.path, version: 1 });
      assertEquals([v1.version, v1.downloaded], [1, 2]);
      const onDisk = JSON.parse(await readFile(join(dir.path, "cities", "v2", "manifest.json"), "utf8"));
      assertEquals([onDisk.format, onDisk.downloaded, onDisk.source], ["parquet", 3, url]);
      assert(onDisk.parts.every((p: Json) => p.url === undefined), "no part URL is kept on disk");
      const mirror = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token: null });
      try {
        for (const path of ["/projects/cities/data?limit=1000", "/projects/cities/data?version=1&limit=1000"]) {
          const [a, b] = await Promise.all([
            fetch(`${url}${path}`, { headers: { authorization: "Bearer origin-token" } }).then((r) => r.text()),
            fetch(`${mirror.url}${path}`).then((r) => r.text()),
          ]);
          assertEquals(b, a, path);
        }
        const m: Json = await (await fetch(`${mirror.url}/projects/cities/manifest`)).json();
        assertEquals(m.signature.origin, "https://origin.example", "the signature passes through");
        assertEquals(m.pulledAt, undefined);
        const detail: Json = await (await fetch(`${mirror.url}/projects/cities`)).json();
        assertEquals([detail.title, detail.local], ["World cities", false]);
      } finally {
        await mirror.shutdown();
      }
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("pull refuses a part that fails its size or digest, once, and leaves no version and no file", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    const good = new TextEncoder().encode("PAR1 not really parquet PAR1");
    const sha = createHash("sha256").update(good).digest("hex");
    const manifest = (bytes: number) => ({
      format: "svc-dataset-manifest/1",
      project: "tiny",
      version: 1,
      parts: [{ sha256: sha, bytes, records: 1, url: `${origin.url}/parts/tiny/${sha}.parquet` }],
      totals: { records: 1 },
    });
    const client = new Client({ baseUrl: origin.url, apiKey: "k" });
    const cases: [Uint8Array, number, RegExp][] = [
      [new TextEncoder().encode("PAR1 not really parquet PAR2"), good.length, /does not match its SHA-256/],
      [good.subarray(0, 10), good.length, /has 10 bytes, the manifest lists/],
      [new Uint8Array([...good, 1, 2, 3]), good.length, /longer than/],
    ];
    for (const [served, listed, message] of cases) {
      origin.fault("/projects/tiny/manifest", { body: JSON.stringify(manifest(listed)) });
      origin.fault("/projects/tiny", { body: JSON.stringify({ slug: "tiny", title: "Tiny" }) });
      origin.fault(`/parts/tiny/${sha}.parquet`, {
        body: served,
        headers: { "content-type": "application/vnd.apache.parquet" },
      });
      const before = origin.seen.length;
      const e = await assertRejects(() => pull(client, "tiny", { store: dir.path }), message);
      assert(e instanceof BundleError);
      assertEquals(origin.seen.slice(before).filter((s) => s.path.startsWith("/parts/")).length, 1, "never retried");
      assertEquals((await readdir(join(dir.path, "tiny"))).filter((n) => n.startsWith("v")), [], "no version");
      assertEquals(await readdir(join(dir.path, "tiny", "parts")), [], "no part, no temporary file");
    }
    origin.fault("/projects/tiny/manifest", { body: JSON.stringify(manifest(good.length)) });
    origin.fault("/projects/tiny", { body: JSON.stringify({ slug: "tiny", title: "Tiny" }) });
    origin.fault(`/parts/tiny/${sha}.parquet`, { status: 503 }, { status: 500 }, { body: good });
    const ok = await pull(client, "tiny", { store: dir.path });
    assertEquals(ok.downloaded, 1, "transfer failures (503, 500) are retried");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("a refused part stops the other transfers: nothing is left or lands after pull answers", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    const slow = new Uint8Array(64 * 1024).fill(7);
    const bad = new TextEncoder().encode("fast part, wrong bytes");
    const shas = [sha256(slow), sha256(new TextEncoder().encode("fast part, right bytes"))];
    offerVersion(origin, "race", 1, [{ sha256: shas[0], bytes: slow.length }, { sha256: shas[1], bytes: bad.length }]);
    // The good part stalls halfway for 3 s; the bad one is refused at once.
    origin.fault(`/parts/race/${shas[0]}.parquet`, { body: slow, holdMs: 3000 });
    origin.fault(`/parts/race/${shas[1]}.parquet`, { body: bad });
    const client = new Client({ baseUrl: origin.url, apiKey: "k" });
    await assertRejects(() => pull(client, "race", { store: dir.path }), /does not match its SHA-256/);
    const parts = join(dir.path, "race", "parts");
    assertEquals(await readdir(parts), [], "no temporary file when pull answers");
    await new Promise((r) => setTimeout(r, 3500));
    assertEquals(await readdir(parts), [], "and nothing lands afterwards");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("svc pull killed halfway leaves the store whole, and the next pull resumes", async () => {
  const origin = await startOrigin();
  const dir = await tempDir();
  try {
    const parts = ["first part bytes", "second part bytes"].map((t) => new TextEncoder().encode(t));
    const shas = parts.map(sha256);
    const serveAll = (delaySecond: number) => {
      offerVersion(origin, "slow", 3, shas.map((sha, i) => ({ sha256: sha, bytes: parts[i].length })));
      origin.fault(`/parts/slow/${shas[0]}.parquet`, { body: parts[0] });
      origin.fault(`/parts/slow/${shas[1]}.parquet`, { body: parts[1], delayMs: delaySecond });
    };
    serveAll(20_000);
    const child = spawnCli(["pull", "slow", "--store", dir.path, "--base-url", origin.url, "--api-key", "k"]);
    await origin.waitFor(shas[1]);
    // The kill comes once the first part is whole in the store and while the second is still held back.
    const first = join(dir.path, "slow", "parts", `${shas[0]}.parquet`);
    for (let waited = 0; !(await stat(first).then(() => true, () => false)) && waited < 15_000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await child.status;
    const names = await readdir(join(dir.path, "slow"));
    assertEquals(names.filter((n) => /^v\d+$/.test(n)), [], "no version after the kill");
    assert(
      (await readdir(join(dir.path, "slow", "parts"))).includes(`${shas[0]}.parquet`),
      "the whole first part stays",
    );
    serveAll(0);
    const run = await runCli(["pull", "slow", "--store", dir.path, "--base-url", origin.url, "--api-key", "k"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(
      run.stdout,
      /^slow v3: 2 record\(s\) in 2 part\(s\) → .*\/slow\/parts\/ \(1 part\(s\) downloaded\) · unsigned\n$/,
    );
    assertEquals((await readdir(join(dir.path, "slow", "parts"))).sort(), shas.map((s) => `${s}.parquet`).sort());
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("svc pull --format jsonl pages /data into STORE/SLUG/vN.jsonl; --verify refuses that path", async () => {
  const dir = await tempDir();
  const origin = await startOrigin({ store: join(dir.path, "origin"), seed: "33".repeat(32) });
  try {
    await citiesStore(join(dir.path, "origin"));
    const store = join(dir.path, "store");
    const common = ["--store", store, "--base-url", origin.url, "--api-key", "agent-key", "--format", "jsonl"];
    const run = await runCli(["pull", "cities@1", ...common]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, `cities v1: 250 records -> ${join(store, "cities", "v1.jsonl")} · unsigned\n`);
    assertMatch(run.stderr, /^pull cities: 250 records in \d+\.\d s\n$/, "no bar in a log: one summary line");
    const paging = (seen: typeof origin.seen) =>
      seen.filter((s) => s.path.startsWith("/projects/cities/data")).map((s) => {
        const q = new URL(s.path, origin.url).searchParams;
        return [q.get("limit"), q.get("offset") ?? "0"];
      });
    assertEquals(paging(origin.seen), [["200", "0"], ["200", "200"]], "200 records a page by default");
    const lines = (await readFile(join(store, "cities", "v1.jsonl"), "utf8")).trimEnd().split("\n");
    const page: Json = await (await fetch(`${origin.url}/projects/cities/data?version=1&limit=1000`, {
      headers: { authorization: "Bearer agent-key" },
    })).json();
    assertEquals(lines.map((l) => JSON.parse(l)), page.records);
    const pages = origin.seen.filter((s) => s.path.startsWith("/projects/cities/data"));
    assert(pages.every((s) => s.path.includes("version=1")), "every page is pinned to the version");

    const verified = await runCli(["pull", "cities", ...common, "--verify"]);
    assertEquals(verified.code, 1);
    assertMatch(verified.stderr, /^error: the JSON-lines path carries no signature/);
    assertEquals((await readdir(join(store, "cities"))).sort(), ["v1.jsonl"], "nothing else was written");
    const bad = await runCli(["pull", "cities", ...common.slice(0, -1), "csv"]);
    assertEquals(bad.code, 2);

    // --out names the store as --store does, --version pins as @N does, --page sizes the pages.
    const out = join(dir.path, "out");
    const from = origin.seen.length;
    const paged = await runCli([
      "pull",
      "cities",
      "--version",
      "1",
      "--out",
      out,
      "--page",
      "100",
      ...common.slice(2),
    ]);
    assertEquals([paged.code, paged.stdout], [
      0,
      `cities v1: 250 records -> ${join(out, "cities", "v1.jsonl")} · unsigned\n`,
    ]);
    assertEquals(await readFile(join(out, "cities", "v1.jsonl"), "utf8"), lines.join("\n") + "\n");
    assertEquals(paging(origin.seen.slice(from)), [["100", "0"], ["100", "100"], ["100", "200"]]);
    assert(
      origin.seen.slice(from).filter((s) => s.path.startsWith("/projects/cities/data")).every((s) =>
        s.path.includes("version=1")
      ),
      "--version pins every page",
    );
    const agreeing = await runCli(["pull", "cities@1", "--version", "1", "--page", "1000", ...common]);
    assertEquals(agreeing.code, 0, agreeing.stderr);
    assertEquals(paging(origin.seen.slice(-1)), [["1000", "0"]]);

    const before = origin.seen.length;
    const usage: [string[], string][] = [
      [["cities@1", "--version", "2", ...common], "error: @1 and --version 2 ask for different versions: give one\n"],
      [["cities", "--version", "0", ...common], 'error: --version must be a whole number of at least 1, not "0"\n'],
      [["cities", "--out", out, ...common], "error: --out and --store are the same option: give one of them\n"],
      [["cities", "--page", "0", ...common], 'error: --page must be a whole number from 1 to 1000, not "0"\n'],
      [["cities", "--page", "1001", ...common], 'error: --page must be a whole number from 1 to 1000, not "1001"\n'],
      [["cities", "--page", "ten", ...common], 'error: --page must be a whole number from 1 to 1000, not "ten"\n'],
      [
        ["cities", "--page", "100", ...common.slice(0, -2)],
        "error: --page goes with --format jsonl (parts are not paged)\n",
      ],
      [
        ["cities", "--page", "100", ...common.slice(0, -1), "parquet"],
        "error: --page goes with --format jsonl (parts are not paged)\n",
      ],
    ];
    for (const [args, stderr] of usage) {
      const run = await runCli(["pull", ...args]);
      assertEquals([run.code, run.stdout, run.stderr], [2, "", stderr], args.join(" "));
    }
    assertEquals(origin.seen.length, before, "a usage error asks nothing");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});

Deno.test("pull --format jsonl and Client.records keep integers beyond 2^53 to the digit", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    try {
      await w.version("big", 1, {
        parts: [{ sql: "SELECT 9007199254740993::BIGINT AS id, 'far' AS name UNION ALL SELECT 1, 'near'" }],
      });
    } finally {
      w.close();
    }
    const dir = await tempDir();
    try {
      const client = new Client({ baseUrl: url, apiKey: null, requireKey: false });
      const pulled = await pullJsonLines(client, "big", { store: dir.path });
      assertEquals(pulled.records, 2);
      const text = await readFile(join(dir.path, "big", "v1.jsonl"), "utf8");
      assertEquals(text, '{"id":9007199254740993,"name":"far"}\n{"id":1,"name":"near"}\n');
      const onePerPage = await pullJsonLines(client, "big", { store: join(dir.path, "paged"), page: 1 });
      assertEquals(onePerPage.records, 2);
      assertEquals(await readFile(join(dir.path, "paged", "big", "v1.jsonl"), "utf8"), text, "a record a page");
      for (const page of [0, 1001, 2.5]) {
        const e = await assertRejects(
          () => pullJsonLines(client, "big", { store: join(dir.path, "bad"), page }),
          new RegExp(`^page must be a whole number from 1 to 1000, not ${page}$`),
        );
        assert(e instanceof ValueError);
      }
      const exact = [];
      for await (const r of client.records("big", { exactIntegers: true })) exact.push(r.id);
      assertEquals(exact, [9007199254740993n, 1]);
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("svc pull --out DIR --version N takes that version's parts into DIR, as --store and SLUG@N do", async () => {
  const dir = await tempDir();
  const origin = await startOrigin({ store: join(dir.path, "origin") });
  try {
    await citiesStore(join(dir.path, "origin"));
    const out = join(dir.path, "out");
    const base = ["--base-url", origin.url, "--api-key", "agent-key"];
    const run = await runCli(["pull", "cities", "--version", "1", "--out", out, ...base]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(
      run.stdout,
      `cities v1: 250 record(s) in 2 part(s) → ${out}/cities/parts/ (2 part(s) downloaded) · unsigned\n`,
    );
    const asked = origin.seen.filter((s) => s.path.startsWith("/projects/cities/manifest"));
    assertEquals(asked.map((s) => new URL(s.path, origin.url).searchParams.get("version")), ["1"]);
    assertEquals((await readdir(join(out, "cities"))).sort(), ["index", "parts", "project.json", "v1"]);
    assertEquals(await readdir(join(out, "cities", "index")), ["versions.log"], "the journal of versions");
    const again = await runCli(["pull", "cities@1", "--version", "1", "--store", out, ...base]);
    assertEquals(again.code, 0, again.stderr);
    assertMatch(again.stdout, /^cities v1: 250 record\(s\) in 2 part\(s\) → .* \(up to date\) · unsigned\n$/);
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
