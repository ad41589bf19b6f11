/**
 * `GET /projects/{slug}/diff` over HTTP on a local project built by real
 * contributions (folds included): the records equal the set difference of
 * the two versions' records and come in the version's order, the fragments
 * are the contributions made, `limit` pages and `limit=0` gives counts;
 * versions without provenance answer 409, hostile parameters 400, and the
 * route needs the node token like every read.
 *
 * @module
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { upgradeProject, withProjectLock } from "../../src/store/mod.ts";
import { join } from "node:path";
import { assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";

const TOKEN = "node-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

const NOTES = {
  slug: "notes",
  title: "Agent notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: {
    fields: [
      { name: "id", type: "integer" },
      { name: "text", type: "string" },
      { name: "score", type: "number", required: false },
    ],
    allowExtra: true,
  },
};

async function call(url: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? AUTH : { ...AUTH, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Batch `i`: `size` records with ids from `start`, some with a score, some with a field beyond the schema. */
function batch(start: number, size: number): Json[] {
  return Array.from({ length: size }, (_, j) => {
    const id = start + j;
    const record: Json = { id, text: `note ${id} \u00e9\u4e16` };
    if (id % 3 === 0) record.score = id / 8;
    if (id % 4 === 0) record.color = ["red", { deep: id }];
    return record;
  });
}

/** Contributes the batches, each one version; returns the answers. */
async function contributeAll(url: string, batches: Json[][]): Promise<Json[]> {
  assertEquals((await call(url, "/projects", NOTES)).status, 201);
  const answers = [];
  for (const records of batches) {
    const r = await call(url, "/projects/notes/contribute", { records });
    assertEquals([r.status, r.body.status], [201, "merged"]);
    answers.push(r.body);
  }
  return answers;
}

/** Every record of a version, as texts, in the version's order. */
async function versionRecords(url: string, version: number): Promise<string[]> {
  if (version === 0) return [];
  const r = await call(url, `/projects/notes/data?version=${version}&limit=1000`);
  assertEquals(r.status, 200);
  return (r.body.records as Json[]).map((x) => JSON.stringify(x));
}

/** `a` minus `b`, as multisets, sorted. */
function minus(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    return n === 0;
  }).sort();
}

const fragmentOf = (answer: Json) => ({
  version: answer.mergedVersion,
  contributionId: answer.id,
  agent: "node-token",
  accepted: answer.acceptedCount,
  mergedAt: answer.createdAt,
});

// Parts after each version: [100], [100,10], [100,20] (fold), [100,20,3], [163] (fold of all), [163,1].
const SIZES = [100, 10, 10, 4, 40, 1];

function batches(): Json[][] {
  let at = 0;
  return SIZES.map((n, i) => {
    const records = batch(at, n);
    at += n;
    if (i === 3) records[3] = records[0]; // a duplicate, dropped: 3 accepted
    return records;
  });
}

Deno.test("diff equals the set difference of two versions' records, in the version's order, for every pair", async () => {
  await withNode({ token: TOKEN }, async ({ url }) => {
    const answers = await contributeAll(url, batches());
    assertEquals(answers.map((a) => [a.mergedVersion, a.acceptedCount]), [[1, 100], [2, 10], [3, 10], [4, 3], [
      5,
      40,
    ], [6, 1]]);
    const manifest = await call(url, "/projects/notes/manifest?version=5");
    assertEquals(manifest.body.parts.length, 1, "version 5 folded every part into one");
    const records = [];
    for (let v = 0; v <= 6; v++) records.push(await versionRecords(url, v));
    for (let to = 1; to <= 6; to++) {
      for (let from = 0; from < to; from++) {
        const d = await call(url, `/projects/notes/diff?from=${from}&to=${to}&limit=500`);
        const label = `${from}..${to}`;
        assertEquals(d.status, 200, label);
        const got = (d.body.records as Json[]).map((x) => JSON.stringify(x));
        assertEquals(got.slice().sort(), minus(records[to], records[from]), label);
        assertEquals(got, records[to].slice(records[from].length), `${label}: the version's order`);
        assertEquals([d.body.project, d.body.from, d.body.to], ["notes", from, to], label);
        assertEquals(d.body.addedRecords, records[to].length - records[from].length, label);
        assertEquals(d.body.addedContributions, to - from, label);
        assertEquals(d.body.fragments, answers.slice(from, to).map(fragmentOf), label);
      }
    }
  });
});

Deno.test("diff: limit pages the records, 0 gives counts only, 100 by default; the token is needed", async () => {
  await withNode({ token: TOKEN }, async ({ url }) => {
    await contributeAll(url, batches());
    const all = await call(url, "/projects/notes/diff?from=0&to=6&limit=500");
    assertEquals(Object.keys(all.body), [
      "project",
      "from",
      "to",
      "addedContributions",
      "addedRecords",
      "fragments",
      "records",
    ]);
    assertEquals([all.body.addedRecords, all.body.records.length], [164, 164]);
    const first = await call(url, "/projects/notes/diff?from=0&to=6");
    assertEquals(first.body.records, all.body.records.slice(0, 100));
    for (const limit of [1, 7, 163, 164]) {
      const page = await call(url, `/projects/notes/diff?from=2&to=6&limit=${limit}`);
      assertEquals(page.body.records, all.body.records.slice(110, 110 + limit), `limit ${limit}`);
      assertEquals([page.body.addedRecords, page.body.addedContributions], [54, 4]);
    }
    const counts = await call(url, "/projects/notes/diff?from=3&to=6&limit=0");
    assertEquals([counts.status, counts.body.addedRecords, counts.body.fragments.length, counts.body.records], [
      200,
      44,
      3,
      [],
    ]);
    const bare = await fetch(`${url}/projects/notes/diff?from=0&to=6`);
    assertEquals([bare.status, (await bare.json()).error], [
      401,
      "this node needs its token: Authorization: Bearer <token>",
    ]);
    const head = await fetch(`${url}/projects/notes/diff?from=0&to=6&limit=0`, { method: "HEAD", headers: AUTH });
    await head.body?.cancel();
    assertEquals(head.status, 200);
  });
});

Deno.test("diff: `from` need not be held, `to` must be; fragments of pruned versions keep their times", async () => {
  await withNode({ token: TOKEN, keepVersions: 2 }, async ({ url }) => {
    const answers = await contributeAll(url, batches());
    const d = await call(url, "/projects/notes/diff?from=1&to=6&limit=0");
    assertEquals([d.status, d.body.addedRecords], [200, 64]);
    assertEquals(d.body.fragments, answers.slice(1).map(fragmentOf));
    const gone = await call(url, "/projects/notes/diff?from=1&to=3");
    assertEquals([gone.status, gone.body.error], [404, "version 3 is not on this node (newest 6, 2 versions held)"]);
  });
});

Deno.test("diff: where parts carry no provenance the node says so (409) instead of guessing", async () => {
  await withNode({ token: TOKEN }, async ({ url, store }) => {
    const pulled = await call(url, "/projects/cities/diff?from=1&to=2");
    assertEquals([pulled.status, pulled.body.error], [
      409,
      "version 2's parts carry no provenance for 100 of its records (part 3), " +
      "so this node cannot tell what was added after version 1: ask the origin",
    ]);
    // A version an older release made, whose part says nothing of its sources (as the store's upgrade finds it),
    // then two batches that stay in a part of their own (50 > 2 x 6).
    await contributeAll(url, [batch(0, 50)]);
    const project = join(store, "notes");
    const file = join(project, "v1", "manifest.json");
    const stacked = JSON.parse(await readFile(file, "utf8"));
    const older = {
      ...stacked,
      format: "svc-dataset-manifest/1",
      parts: [{ sha256: stacked.stack.sha256, bytes: stacked.stack.bytes, records: stacked.stack.records }],
      source: stacked.contribution,
    };
    for (const key of ["stack", "provenance", "change", "contribution"]) delete older[key];
    await writeFile(file, JSON.stringify(older));
    for (const log of ["parts.log", "provenance.log", "versions.log"]) await rm(join(project, "index", log));
    await withProjectLock(store, "notes", () => upgradeProject(store, "notes"));
    for (const records of [batch(50, 3), batch(53, 3)]) {
      assertEquals((await call(url, "/projects/notes/contribute", { records })).status, 201);
    }
    const known = await call(url, "/projects/notes/diff?from=2&to=3");
    assertEquals([known.status, known.body.addedRecords, known.body.records.map((r: Json) => r.id)], [
      200,
      3,
      [53, 54, 55],
    ]);
    for (const [from, to] of [[1, 3], [0, 3], [1, 2], [0, 1]]) {
      const r = await call(url, `/projects/notes/diff?from=${from}&to=${to}`);
      assertEquals(r.status, 409, `${from}..${to}`);
      assertEquals(r.body.error.startsWith(`version ${to}'s parts carry no provenance for 50 of its records`), true);
    }
  });
});

Deno.test("diff: hostile or missing parameters are 400, unknown projects and versions 404", async () => {
  await withNode({ token: TOKEN }, async ({ url }) => {
    await contributeAll(url, [batch(0, 5), batch(5, 5)]);
    const cases: [string, number, string][] = [
      ["", 400, "querystring must have required property 'from'"],
      ["from=1", 400, "querystring must have required property 'to'"],
      ["to=2", 400, "querystring must have required property 'from'"],
      ["from=2&to=2", 400, "querystring/from must be < to (2)"],
      ["from=3&to=2", 400, "querystring/from must be < to (2)"],
      ["from=-1&to=2", 400, "querystring/from must be >= 0"],
      ["from=0&to=0", 400, "querystring/to must be >= 1"],
      ["from=a&to=2", 400, "querystring/from must be integer"],
      ["from=1.5&to=2", 400, "querystring/from must be integer"],
      ["from=1&to=1e3", 400, "querystring/to must be integer"],
      ["from=1%27%20OR%201%3D1--&to=2", 400, "querystring/from must be integer"],
      ["from=1;DROP%20TABLE%20x&to=2", 400, "querystring/from must be integer"],
      ["from=0&to=99999999999999999999", 400, "querystring/to must be <= 9007199254740991"],
      ["from=0&to=2&limit=501", 400, "querystring/limit must be >= 0 and <= 500"],
      ["from=0&to=2&limit=-1", 400, "querystring/limit must be >= 0 and <= 500"],
      ["from=0&to=2&limit=x", 400, "querystring/limit must be integer"],
      ["from=0&to=3", 404, "version 3 is not on this node (newest 2, 2 versions held)"],
      ["from=0&to=9007199254740991", 404, "version 9007199254740991 is not on this node (newest 2, 2 versions held)"],
    ];
    for (const [query, status, error] of cases) {
      const r = await call(url, `/projects/notes/diff?${query}`);
      assertEquals([r.status, r.body], [status, { error }], query);
    }
    const unknown = await call(url, "/projects/nothing-here/diff?from=0&to=1");
    assertEquals([unknown.status, unknown.body], [404, { error: 'project "nothing-here" not found on this node' }]);
    const post = await call(url, "/projects/notes/diff?from=0&to=1", {});
    assertEquals(post.status, 405);
  });
});
