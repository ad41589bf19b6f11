import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { withNode } from "../support/node.ts";
import { post } from "../support/local_project.ts";

const NOTES = {
  slug: "notes",
  title: "Agent notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: {
    fields: [
      { name: "id", type: "integer" },
      { name: "text", type: "string" },
      { name: "score", type: "number", required: false },
      { name: "done", type: "boolean", required: false },
    ],
    allowExtra: true,
  },
};

const contribute = (url: string, records: unknown[], headers: Record<string, string> = {}, extra = {}) =>
  post(url, "/projects/notes/contribute", { records, ...extra }, headers);

/** A schema reason's one line as the verdict's `errors` gives it. */
function lineError(reason: string): { line: number; error: string } {
  const m = /^line (\d+): (.*)$/.exec(reason)!;
  return { line: Number(m[1]), error: m[2] };
}

Deno.test("POST /projects creates a local project: 201, project.json with local: true, private by default", async () => {
  await withNode({}, async ({ url, store }) => {
    const r = await post(url, "/projects", NOTES);
    assertEquals([r.status, r.body], [201, { id: null, slug: "notes", visibility: "private", local: true }]);
    const meta = JSON.parse(await readFile(join(store, "notes", "project.json"), "utf8"));
    assertEquals([meta.local, meta.access, meta.visibility, meta.license], [
      true,
      "public",
      "private",
      "platform-standard",
    ]);
    const detail: Json = await (await fetch(`${url}/projects/notes`)).json();
    assertEquals([detail.local, detail.localVersions, detail.schemaDef.allowExtra], [true, [], true]);
    const again = await post(url, "/projects", NOTES);
    assertEquals([again.status, again.body.error], [409, "project notes already exists on this node"]);
    const copy = await post(url, "/projects", { ...NOTES, slug: "cities" });
    assertEquals(copy.status, 409, "the slug of a copy is taken too");
    const health: Json = await (await fetch(`${url}/healthz`)).json();
    assertEquals(health.localProjects, ["notes"]);
  });
});

Deno.test("POST /projects refuses bad fields with 400", async () => {
  await withNode({}, async ({ url }) => {
    const field = (f: unknown) => ({ ...NOTES, schemaDef: { fields: [f] } });
    const bad: [unknown, RegExp][] = [
      [{ ...NOTES, slug: "No" }, /^body\/slug must match pattern/],
      [{ ...NOTES, slug: "../x" }, /^body\/slug/],
      [{ ...NOTES, title: "abc" }, /^body\/title must be a string of 4-140/],
      [{ ...NOTES, title: "x".repeat(141) }, /^body\/title/],
      [{ ...NOTES, readme: "too short" }, /^body\/readme must be a string of 20-20000/],
      [{ ...NOTES, access: "private" }, /^body\/access must be public/],
      [{ ...NOTES, visibility: "secret" }, /^body\/visibility/],
      [{ ...NOTES, owner: "me" }, /must NOT have additional property 'owner'/],
      [{ ...NOTES, tags: ["ok", "Bad Tag"] }, /^body\/tags/],
      [{ ...NOTES, tags: Array(9).fill("tag") }, /^body\/tags/],
      [{ ...NOTES, license: "x".repeat(61) }, /^body\/license/],
      [{ ...NOTES, schemaDef: { fields: [] } }, /1-40 fields/],
      [
        { ...NOTES, schemaDef: { fields: Array.from({ length: 41 }, (_, i) => ({ name: `f${i}`, type: "string" })) } },
        /1-40/,
      ],
      [field({ name: "1abc", type: "string" }), /name must match/],
      [field({ name: "a", type: "date" }), /type must be one of/],
      [field({ name: "_extra", type: "string" }), /name must match/],
      [
        { ...NOTES, schemaDef: { fields: [{ name: "a", type: "string" }, { name: "a", type: "integer" }] } },
        /named twice/,
      ],
      [
        { ...NOTES, schemaDef: { fields: [{ name: "name", type: "string" }, { name: "Name", type: "integer" }] } },
        /^body\/schemaDef\/fields: "name" and "Name" differ only in case \(SQL column names ignore case\)$/,
      ],
      [[], /^body must be a JSON object/],
    ];
    for (const [body, message] of bad) {
      const r = await post(url, "/projects", body);
      assertEquals(r.status, 400, JSON.stringify(body).slice(0, 120));
      assertMatch(r.body.error, message);
    }
    const ok = await post(url, "/projects", {
      ...NOTES,
      license: "My own license",
      visibility: "public",
      tags: ["ai"],
    });
    assertEquals(ok.status, 201, "any license string is taken as given");
  });
});

Deno.test("contribute: a project made before fields alike but for case were refused answers 409, and is left as it was", async () => {
  await withNode({}, async ({ url, store }) => {
    assertEquals((await post(url, "/projects", NOTES)).status, 201);
    const path = join(store, "notes", "project.json");
    const meta = JSON.parse(await readFile(path, "utf8"));
    meta.schemaDef.fields.push({ name: "Text", type: "string", required: false });
    await writeFile(path, JSON.stringify(meta));
    const r = await contribute(url, [{ id: 1, text: "a", Text: "b" }]);
    assertEquals(r.status, 409);
    assertMatch(r.body.error, /^project notes's schema names "text" and "Text", which differ only in case/);
    assertEquals(await readdir(join(store, "notes")), ["project.json"], "nothing written");
    const health: Json = await (await fetch(`${url}/healthz`)).json();
    assertEquals(health.ok, true);
  });
});

Deno.test("contribute: gates in order, answers final, duplicates dropped and counted", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    const first = await contribute(url, [
      { id: 9007199254740993n.toString(), text: "x" },
    ]);
    assertEquals(first.body.verdict, {
      gate: "schema",
      reason: 'line 1: "id" must be integer',
      errors: [{ line: 1, error: '"id" must be integer' }],
    });
    const raw =
      '{"records": [{"id": 9007199254740993, "text": "big"}, {"id": 2, "text": "two", "color": "red", "score": 1.5}, ' +
      '{"id": 2, "text": "two", "score": 1.5, "color": "red"}]}';
    const merged = await post(url, "/projects/notes/contribute", raw);
    assertEquals(merged.status, 201);
    assertMatch(merged.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assertMatch(merged.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { id: _id, createdAt: _at, ...rest } = merged.body;
    assertEquals(rest, {
      status: "merged",
      recordCount: 3,
      acceptedCount: 2,
      verdict: { ok: true, droppedDuplicates: 1, parts: 1 },
      mergedVersion: 1,
      sourceDeclaration: null,
    });
    const page = await (await fetch(`${url}/projects/notes/data`)).text();
    assertEquals(
      page,
      '{"project":"notes","version":1,"count":2,"records":[{"id":9007199254740993,"text":"big"},' +
        '{"id":2,"text":"two","score":1.5,"color":"red"}],"total":2,"next":null}',
    );
    const cases: [unknown[], string, string][] = [
      [[{ id: 3 }], "schema", 'line 1: missing required field "text"'],
      [[{ id: 3, text: "a" }, { id: 4.5, text: "b" }], "schema", 'line 2: "id" must be integer'],
      [[{ id: 3, text: "a", done: "yes" }], "schema", 'line 1: "done" must be boolean'],
      [
        [{ id: 3, text: "a" }, { id: 4, text: "call 900101-1234567" }],
        "pii",
        "line 2: resident registration number pattern detected",
      ],
      [[{ id: 3, text: "a", "900101-1234567": true }], "pii", "line 1: resident registration number pattern detected"],
      [[{ id: 2, score: 1.5, text: "two", color: "red" }], "dedup", "every record already exists in the dataset"],
    ];
    for (const [records, gate, reason] of cases) {
      const r = await contribute(url, records);
      assertEquals(r.status, 201);
      assertEquals([r.body.status, r.body.verdict, r.body.mergedVersion, r.body.acceptedCount], [
        "rejected",
        gate === "schema" ? { gate, reason, errors: [lineError(reason)] } : { gate, reason },
        null,
        null,
      ]);
    }
    const ok = await contribute(url, [{ id: 5, text: "timestamp 1732246800", n: 9001011234568 }], {}, {
      sourceDeclaration: "typed by hand",
    });
    assertEquals([ok.body.status, ok.body.mergedVersion, ok.body.sourceDeclaration], ["merged", 2, "typed by hand"]);
    const kept: Json = await (await fetch(`${url}/projects/notes/contributions/${ok.body.id}`)).json();
    assertEquals(kept, ok.body);
  });
});

Deno.test("contribute: 1 to 500 records, at most 512 KiB, sourceDeclaration up to 500, nothing else", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    assertEquals((await contribute(url, [])).status, 400);
    const many = Array.from({ length: 501 }, (_, i) => ({ id: i, text: "t" }));
    assertEquals((await contribute(url, many)).body.error, "body/records must be an array of 1-500 records");
    const exactly = await contribute(url, many.slice(0, 500));
    assertEquals([exactly.status, exactly.body.acceptedCount], [201, 500]);
    const big = Array.from({ length: 300 }, (_, i) => ({ id: 1000 + i, text: "x".repeat(1800) }));
    const tooBig = await contribute(url, big);
    assertEquals([tooBig.status, tooBig.body.error], [413, "records are over 512 KiB: send them in smaller batches"]);
    assertEquals(
      (await contribute(url, [{ id: 1, text: "a" }], {}, { sourceDeclaration: "x".repeat(501) })).status,
      400,
    );
    assertEquals((await contribute(url, [{ id: 1, text: "a" }], {}, { wait: true })).status, 400);
    assertEquals((await post(url, "/projects/notes/contribute", "[1]")).status, 400);
    assertEquals((await post(url, "/projects/notes/contribute", '{"records": [1}')).status, 400);
    const badKey = await contribute(url, [{ id: 1, text: "a" }], { "idempotency-key": "k".repeat(201) });
    assertEquals(badKey.status, 400);
    const version: Json = await (await fetch(`${url}/projects/notes`)).json();
    assertEquals(version.localVersions, [1], "no refused batch made a version");
  });
});

Deno.test("writes: 405 on copies, on read-only nodes, and for push", async () => {
  await withNode({}, async ({ url }) => {
    const copy = await post(url, "/projects/cities/contribute", { records: [{ id: 1 }] });
    assertEquals(copy.status, 405);
    assertMatch(copy.body.error, /copy of an origin project/);
    assertEquals((await post(url, "/projects/nowhere/contribute", { records: [{ id: 1 }] })).status, 404);
    assertEquals((await post(url, "/projects/cities/push", "x", { "content-type": "application/gzip" })).status, 405);
  });
  await withNode({ readOnly: true }, async ({ url }) => {
    const create = await post(url, "/projects", NOTES);
    assertEquals([create.status, create.body.error], [405, "this node is read-only: it takes no writes"]);
    assertEquals((await post(url, "/projects/cities/contribute", { records: [{ id: 1 }] })).status, 405);
  });
});

Deno.test("Idempotency-Key: the first answer replays for 24 hours, even when requests race; another body is 422", async () => {
  let now = Date.parse("2026-11-22T03:00:00Z");
  await withNode({ now: () => now }, async ({ url, store }) => {
    await post(url, "/projects", NOTES);
    const records = [{ id: 1, text: "one" }];
    const key = { "idempotency-key": "batch-0001" };
    const answers = await Promise.all(Array.from({ length: 10 }, () => contribute(url, records, key)));
    assertEquals(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assertEquals(new Set(answers.map((a) => a.body.id)).size, 1, "one contribution, replayed nine times");
    for (const a of answers.filter((a) => a.status === 200)) assertEquals(a.headers.get("idempotent-replayed"), "true");
    const other = await contribute(url, [{ id: 2, text: "two" }], key);
    assertEquals([other.status, other.body.error], [
      422,
      "this Idempotency-Key was used with a different body within 24 hours",
    ]);
    const rejected = await contribute(url, [{ id: 3 }], { "idempotency-key": "bad-batch" });
    const rejectedAgain = await contribute(url, [{ id: 3 }], { "idempotency-key": "bad-batch" });
    assertEquals([rejectedAgain.status, rejectedAgain.body.id], [200, rejected.body.id], "rejections replay too");
    now += 24 * 3600 * 1000 + 1000;
    const later = await contribute(url, records, key);
    assertEquals(later.status, 201, "after 24 hours the key is new again");
    assertEquals(later.body.verdict.gate, "dedup");
    const index = JSON.parse(await readFile(join(store, "notes", "index", "idempotency.json"), "utf8"));
    assertEquals(Object.keys(index).sort(), ["batch-0001"], "expired entries are dropped");
  });
});

Deno.test("small batches fold into the tail parts: few parts, each record rewritten about log2(batches) times", async () => {
  await withNode({}, async ({ url, store }) => {
    await post(url, "/projects", NOTES);
    for (let i = 0; i < 12; i++) {
      const r = await contribute(
        url,
        Array.from({ length: 10 }, (_, j) => ({ id: i * 10 + j, text: `n${i * 10 + j}` })),
      );
      assertEquals(r.body.mergedVersion, i + 1);
    }
    const manifest: Json = await (await fetch(`${url}/projects/notes/manifest`)).json();
    assertEquals([manifest.format, manifest.version, manifest.parent], ["svc-dataset-manifest/1", 12, 11]);
    assertEquals(manifest.parts.map((p: Json) => p.records), [80, 30, 10], "tail runs fold like a binary counter");
    const bytes = manifest.parts.reduce((a: number, p: Json) => a + p.bytes, 0);
    assertEquals(manifest.totals, { records: 120, bytes, parts: 3, contributions: 12 });
    const written = (await readdir(join(store, "notes", "parts"))).length;
    assert(written <= 24, `${written} part files for 12 batches (a part each, and a change file when it folded)`);
    assertMatch(manifest.schema.hash, /^[0-9a-f]{64}$/);
    assertEquals(manifest.source, undefined, "bookkeeping stays local");
    const v3: Json = await (await fetch(`${url}/projects/notes/data?version=3&limit=1000`)).json();
    assertEquals(v3.count, 30, "earlier versions stay whole");
    const all: Json = await (await fetch(`${url}/projects/notes/data?limit=1000`)).json();
    assertEquals(all.records.map((r: Json) => r.id), Array.from({ length: 120 }, (_, i) => i));
    const q: Json = await (await fetch(`${url}/projects/notes/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT count(*), count(DISTINCT id) FROM records" }),
    })).json();
    assertEquals(q.rows, [[120, 120]]);
  });
});

Deno.test("unknown contributions are 404; an id that is not a UUID is 400", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    const unknown = await fetch(`${url}/projects/notes/contributions/${crypto.randomUUID()}`);
    assertEquals(unknown.status, 404);
    assert(typeof (await unknown.json()).error === "string");
    for (const id of ["not-a-uuid", "..%2f..%2fproject.json", `${crypto.randomUUID()}x`]) {
      const res = await fetch(`${url}/projects/notes/contributions/${id}`);
      assertEquals([res.status, (await res.json()).error], [400, "a contribution id is a UUID"], id);
    }
  });
});

Deno.test("fields and Idempotency-Keys named like Object's members are plain names: stored, replayed, never a 5xx", async () => {
  await withNode({}, async ({ url, store }) => {
    const fields = ["constructor", "toString", "hasOwnProperty", "valueOf"].map((name) => ({
      name,
      type: "string",
      required: false,
    }));
    const created = await post(url, "/projects", {
      ...NOTES,
      slug: "members",
      schemaDef: { fields: [{ name: "id", type: "integer" }, ...fields] },
    });
    assertEquals(created.status, 201);
    // Records leaving the fields out (Object.prototype has them all) and one giving them.
    const records: Json[] = [{ id: 1 }, { id: 2, constructor: null, toString: "s" }, { id: 3, valueOf: "v" }];
    const batch = await post(url, "/projects/members/contribute", { records });
    assertEquals([batch.status, batch.body.status, batch.body.acceptedCount], [201, "merged", 3]);
    const page = await (await fetch(`${url}/projects/members/data`)).json();
    // A page leaves out null fields.
    const expected: Json[] = [{ id: 1 }, { id: 2, toString: "s" }, { id: 3, valueOf: "v" }];
    assertEquals(page.records, expected);
    for (const [i, key] of ["__proto__", "constructor", "toString"].entries()) {
      const body = { records: [{ id: 10 + i }] };
      const first = await post(url, "/projects/members/contribute", body, { "idempotency-key": key });
      const again = await post(url, "/projects/members/contribute", body, { "idempotency-key": key });
      assertEquals([first.status, again.status, again.body.id], [201, 200, first.body.id], key);
    }
    const index = JSON.parse(await readFile(join(store, "members", "index", "idempotency.json"), "utf8"));
    assertEquals(Object.keys(index).sort(), ["__proto__", "constructor", "toString"]);
  });
});

Deno.test("contribute: numbers beyond int64 or float64 are a schema rejection, never a 5xx or a changed value", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    const raw = (records: string) => post(url, "/projects/notes/contribute", `{"records": [${records}]}`);
    const cases: [string, string][] = [
      ['{"id": 1e19, "text": "a"}', 'line 1: "id" is out of range for an integer'],
      ['{"id": 1e300, "text": "a"}', 'line 1: "id" is out of range for an integer'],
      ['{"id": -9223372036854775809, "text": "a"}', 'line 1: "id" is out of range for an integer'],
      ['{"id": 1, "text": "a", "score": 1e400}', 'line 1: "score" is out of range for a number'],
      ['{"id": 1, "text": "a", "score": -1e400}', 'line 1: "score" is out of range for a number'],
      [
        '{"id": 1, "text": "a", "score": 9007199254740993}',
        'line 1: "score" is not exact as a number (9007199254740993 would not read back as sent)',
      ],
      ['{"id": 1, "text": "a", "extra": {"deep": [1e400]}}', 'line 1: "extra.deep[0]" is out of range for a number'],
      ['{"id": 1, "text": "a\\ud800"}', 'line 1: "text" is not valid Unicode text (it holds a lone surrogate)'],
      [
        '{"id": 1, "text": "a", "extra": ["\\udfff"]}',
        'line 1: "extra[0]" is not valid Unicode text (it holds a lone surrogate)',
      ],
    ];
    for (const [record, reason] of cases) {
      const r = await raw(record);
      assertEquals([r.status, r.body.status, r.body.verdict], [201, "rejected", {
        gate: "schema",
        reason,
        errors: [lineError(reason)],
      }]);
    }
    const fine = await raw('{"id": 9223372036854775807, "text": "max"}, {"id": 2, "text": "b", "score": 1e300}');
    assertEquals([fine.status, fine.body.status], [201, "merged"]);
    const page = await (await fetch(`${url}/projects/notes/data`)).text();
    assert(page.includes('"id":9223372036854775807'), page);
    assert(page.includes('"score":1e+300'), page);
  });
});

Deno.test("contribute: a schema rejection names the first 20 bad lines; non-objects, bad ?wait= are 400", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    const records = Array.from({ length: 30 }, (_, i) => (i === 0 ? { id: 0, text: "fine" } : { id: i, text: i }));
    const r = await contribute(url, records);
    assertEquals([r.status, r.body.status, r.body.verdict.gate], [201, "rejected", "schema"]);
    assertEquals(r.body.verdict.errors.length, 20, "at most 20 lines, as the reference gives them");
    assertEquals(r.body.verdict.errors[0], { line: 2, error: '"text" must be string' });
    assertEquals(r.body.verdict.errors[19], { line: 21, error: '"text" must be string' });
    assert(r.body.verdict.reason.endsWith('line 21: "text" must be string … (the first 20)'), r.body.verdict.reason);
    for (const bad of [[1], [{ id: 1, text: "a" }, "x"], [[{ id: 1 }]], [null]]) {
      const res = await contribute(url, bad);
      assertEquals(res.status, 400, JSON.stringify(bad));
      assertMatch(res.body.error, /^body\/records\/\d+ must be a JSON object$/);
    }
    for (const wait of ["21", "-1", "abc", "1.5", "", "020"]) {
      const res = await post(url, `/projects/notes/contribute?wait=${wait}`, { records: [{ id: 1, text: "a" }] });
      assertEquals([res.status, res.body.error], [400, "querystring/wait must be an integer from 0 to 20"], wait);
    }
    for (const wait of ["0", "5", "20"]) {
      const res = await post(url, `/projects/notes/contribute?wait=${wait}`, {
        records: [{ id: 100 + Number(wait), text: "w" }],
      });
      assertEquals([res.status, res.body.status], [201, "merged"], wait);
    }
  });
});

Deno.test("parts carry provenance: sources per contribution with offsets, surviving folding", async () => {
  await withNode({}, async ({ url }) => {
    await post(url, "/projects", NOTES);
    const answers: Json[] = [];
    for (let i = 0; i < 6; i++) {
      const records = Array.from({ length: 10 + i }, (_, j) => ({ id: i * 100 + j, text: `n${i}-${j}` }));
      const headers: Record<string, string> = i === 2 ? { authorization: "Bearer some-agent-key" } : {};
      answers.push((await contribute(url, records, headers)).body);
    }
    const manifest: Json = await (await fetch(`${url}/projects/notes/manifest`)).json();
    const sources = manifest.parts.flatMap((p: Json) => {
      let at = 0;
      for (const s of p.sources) {
        assertEquals(s.offset, at, "sources tile their part in order");
        at += s.records;
      }
      assertEquals(at, p.records, "sources account for every record of the part");
      return p.sources;
    });
    assertEquals(sources.map((s: Json) => s.contributionId), answers.map((a) => a.id));
    assertEquals(sources.map((s: Json) => s.mergedInVersion), [1, 2, 3, 4, 5, 6]);
    assertEquals(sources.map((s: Json) => s.records), [10, 11, 12, 13, 14, 15]);
    assertEquals(sources[0].agentId, "anonymous");
    assertMatch(sources[2].agentId, /^key-[0-9a-f]{16}$/);
    assert(!JSON.stringify(manifest).includes("some-agent-key"), "the key itself is never written");
    assert(manifest.parts.length < 6, "some parts were folded");
    const rows: Json = await (await fetch(`${url}/projects/notes/data?limit=1000`)).json();
    const part0 = manifest.parts[0];
    const last = part0.sources.at(-1);
    assertEquals(
      rows.records[last.offset].id,
      (last.mergedInVersion - 1) * 100,
      "an offset points at its first record",
    );
  });
});
