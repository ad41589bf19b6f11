import { notASlug } from "../../src/wire/mod.ts";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCli, startServe } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { tempDir } from "../support/store_fixture.ts";

Deno.test("svc create and svc contribute fill a node: batches, progress, summary, replays", async () => {
  const dir = await tempDir();
  const node = await startServe(["--store", join(dir.path, "store"), "--quiet"]);
  try {
    const base = ["--base-url", node.url, "--api-key", "any"];
    await writeFile(join(dir.path, "README.md"), "Notes an agent keeps while it works.");
    await writeFile(
      join(dir.path, "schema.json"),
      JSON.stringify([{ name: "id", type: "integer" }, { name: "text", type: "string" }]),
    );
    const created = await runCli([
      "create",
      "notes",
      "--title",
      "Agent notes",
      "--readme-file",
      join(dir.path, "README.md"),
      "--schema",
      `@${join(dir.path, "schema.json")}`,
      "--license",
      "CC0-1.0",
      "--tags",
      "travel",
      "food,notes",
      ...base,
    ]);
    const tags: Json = await (await fetch(`${node.url}/projects/notes`)).json();
    assertEquals(tags.tags, ["travel", "food", "notes"], "--tags a b,c: words up to the next option, commas too");
    assertEquals(
      [created.code, created.stdout],
      [
        0,
        "created notes (this node's own project: whoever may read the node reads it; private on the origin once " +
        `promoted) on ${node.url}\n`,
      ],
      created.stderr,
    );
    const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ id: i, text: `note ${i}` }));
    lines.splice(10, 0, '{"id": 9007199254740993, "text": "big"}', "", JSON.stringify({ id: 3, text: "note 3" }));
    await writeFile(join(dir.path, "records.jsonl"), lines.join("\n") + "\n");
    const sent = await runCli(["contribute", "notes", "--file", join(dir.path, "records.jsonl"), ...base]);
    assertEquals(sent.code, 0, sent.stderr);
    assertEquals(
      sent.stderr,
      "notes: 1202 records in 3 batches: 1201 merged (versions 1-3), 1 duplicate, 0 rejected\n",
      "no bar in a log: the summary alone",
    );
    // One line a batch on stdout, in the reference's words: the duplicate of line 13 is not accepted.
    const batchLines = sent.stdout.trimEnd().split("\n");
    assertEquals(batchLines.length, 3, sent.stdout);
    assertMatch(batchLines[0], /^merged {2}\S+ {2}accepted 499\/500 → v1$/);
    assertMatch(batchLines[1], /^merged {2}\S+ {2}accepted 500\/500 → v2$/);
    assertMatch(batchLines[2], /^merged {2}\S+ {2}accepted 202\/202 → v3$/);
    // Records all there already: nothing new, which is no failure.
    await writeFile(join(dir.path, "known.jsonl"), JSON.stringify({ id: 7, text: "note 7" }) + "\n");
    const known = await runCli(["contribute", "notes", "--file", join(dir.path, "known.jsonl"), ...base]);
    assertEquals(known.code, 0, known.stderr);
    assertMatch(known.stdout, /^nothing new {2}\S+ {2}every record is already there\n$/);
    assertEquals(known.stderr, "notes: 1 record in 1 batch: 0 merged, 1 duplicate, 0 rejected\n");
    const page: Json = await (await fetch(`${node.url}/projects/notes/data?limit=20`)).text();
    assertMatch(page, /"id":9007199254740993/);
    const again = await runCli(["contribute", "notes", "--file", join(dir.path, "records.jsonl"), ...base, "--json"]);
    const totals = JSON.parse(again.stdout);
    assertEquals([totals.batches, totals.replayed, totals.merged], [3, 3, 1201], "the same file replays its answers");
    const version: Json = await (await fetch(`${node.url}/projects/notes`)).json();
    assertEquals(version.localVersions, [3, 2, 1], "no new version from the replay");

    // --source goes with every batch; on a node, which merges before it answers, --wait changes nothing.
    const source = "Typed in by the agent while it worked.";
    await writeFile(
      join(dir.path, "more.jsonl"),
      [5000, 5001].map((id) => JSON.stringify({ id, text: "n" })).join("\n"),
    );
    const declared = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "more.jsonl"),
      "--source",
      source,
      "--wait",
      ...base,
    ]);
    assertEquals(
      [declared.code, declared.stderr],
      [0, "notes: 2 records in 1 batch: 2 merged (version 4), 0 duplicates, 0 rejected\n"],
    );
    const withJson = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "more.jsonl"),
      "--source",
      source,
      "--json",
      ...base,
    ]);
    const replayed = JSON.parse(withJson.stdout);
    assertEquals(replayed.answers.map((a: Json) => [a.status, a.sourceDeclaration]), [["merged", source]]);
    assertEquals(replayed.replayed, 1, "the same records and source replay the answer");
    const kept: Json = await (await fetch(`${node.url}/projects/notes/contributions/${replayed.answers[0].id}`, {
      headers: { authorization: "Bearer any" },
    })).json();
    assertEquals(kept.sourceDeclaration, source, "the node keeps the declaration");
    const long = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "more.jsonl"),
      "--source",
      "x".repeat(501),
      ...base,
    ]);
    assertEquals(long.code, 1, "a node takes at most 500 characters: its answer, not a usage error");
    assertMatch(
      long.stderr,
      /error: body\/sourceDeclaration must be a string of at most 500 characters \(HTTP 400\)\n$/,
    );
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    await dir.cleanup();
  }
});

Deno.test("svc contribute: stdin, rejected batches reported, bad lines and unreachable nodes are errors", async () => {
  const dir = await tempDir();
  const node = await startServe(["--store", join(dir.path, "store"), "--quiet"]);
  try {
    const base = ["--base-url", node.url, "--api-key", "any"];
    await writeFile(join(dir.path, "README.md"), "Notes an agent keeps while it works.");
    const created = await runCli([
      "create",
      "notes",
      "--title",
      "Agent notes",
      "--readme-file",
      join(dir.path, "README.md"),
      "--schema",
      '{"fields": [{"name": "id", "type": "integer"}]}',
      ...base,
      "--json",
    ]);
    assertEquals(JSON.parse(created.stdout), { id: null, slug: "notes", visibility: "private", local: true });
    await writeFile(join(dir.path, "bad.jsonl"), '{"id": "x"}\n');
    const rejected = await runCli(["contribute", "notes", "--file", join(dir.path, "bad.jsonl"), ...base]);
    assertEquals(rejected.code, 1, "a rejected batch fails the run");
    assertMatch(rejected.stdout, /^rejected {2}\S+ {2}schema: line 1: "id" must be integer\n$/);
    assertMatch(
      rejected.stderr,
      /0 merged, 0 duplicates, 1 rejected\n {2}batch 1 \(schema\): line 1: "id" must be integer.*\nerror: 1 of 1 batch rejected\n$/,
    );
    const rejectedJson = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "bad.jsonl"),
      "--json",
      ...base,
    ]);
    assertEquals([rejectedJson.code, JSON.parse(rejectedJson.stdout).rejected], [1, 1]);
    const absent = join(dir.path, "absent.jsonl");
    const notFound = await runCli(["contribute", "notes", "--file", absent, ...base]);
    assertEquals([notFound.code, notFound.stderr], [1, `error: cannot read ${absent}: not found\n`]);
    const folder = await runCli(["contribute", "notes", "--file", dir.path, ...base]);
    assertEquals([folder.code, folder.stderr], [1, `error: cannot read ${dir.path}: is a directory\n`]);
    await writeFile(join(dir.path, "broken.jsonl"), '{"id": 1}\n{"id": \n');
    const broken = await runCli(["contribute", "notes", "--file", join(dir.path, "broken.jsonl"), ...base]);
    assertEquals(broken.code, 1);
    assertMatch(broken.stderr, /error: line 2: not JSON/);
    const down = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "bad.jsonl"),
      "--base-url",
      "http://127.0.0.1:9",
      "--api-key",
      "k",
    ]);
    assertEquals(down.code, 1);
    assertMatch(down.stderr, /error: cannot reach http:\/\/127\.0\.0\.1:9: /);
    const missing = await runCli(["contribute", "nowhere", "--file", join(dir.path, "bad.jsonl"), ...base]);
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /error: .*project "\S+" not found on this node/);
    assertEquals((await runCli(["contribute", "notes", ...base])).code, 2);
    // A node without a token takes the records without a key: the batch goes, and is judged.
    const keyless = await runCli(
      ["contribute", "notes", "--file", join(dir.path, "bad.jsonl"), "--base-url", node.url],
      { SVC_API_KEY: "", SVC_NODE_TOKEN: "" },
    );
    assertEquals(keyless.code, 1, keyless.stderr);
    assertMatch(keyless.stdout, /^rejected {2}\S+ {2}schema: line 1: "id" must be integer\n$/);
    assertEquals((await runCli(["create", "notes", "--title", "x", ...base])).code, 2);
    // Every problem at once, not one a try.
    const many = await runCli([
      "create",
      "Notes",
      "--title",
      "x",
      "--readme",
      "short",
      "--schema",
      '[{"name": "1id", "type": "int"}, {"name": "ok", "type": "string", "required": "no"}]',
      "--visibility",
      "secret",
      ...base,
    ]);
    assertEquals([many.code, many.stderr.split("\n")], [2, [
      "error: svc create: 7 problems:",
      `  ${notASlug("Notes")}`,
      "  the README must be 20-20000 characters; --readme holds 5",
      "  --visibility must be public or private",
      "  --title must be a string of 4-140 characters",
      '  --schema: field 1\'s "name" must match ^[a-zA-Z][a-zA-Z0-9_]{0,60}$',
      '  --schema: field 1\'s "type" must be one of string, number, integer, boolean',
      '  --schema: field 2\'s "required" must be boolean',
      "",
    ]]);
    const badType = await runCli([
      "create",
      "typed",
      "--title",
      "Typed notes",
      "--readme-file",
      join(dir.path, "README.md"),
      "--schema",
      '[{"name": "id", "type": "int"}]',
      ...base,
    ]);
    assertEquals(
      [badType.code, badType.stderr],
      [2, 'error: --schema: field 1\'s "type" must be one of string, number, integer, boolean\n'],
    );
    const noReadme = await runCli([
      "create",
      "typed",
      "--title",
      "Typed notes",
      "--readme-file",
      join(dir.path, "nope.md"),
      "--schema",
      "[]",
      ...base,
    ]);
    assertEquals(noReadme.stderr, `error: cannot read ${join(dir.path, "nope.md")}: not found\n`);
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    await dir.cleanup();
  }
});

Deno.test("svc create and svc contribute against the origin: the license list, --source, and --wait for batches screened later", async () => {
  const dir = await tempDir();
  const origin = await startOrigin({ store: join(dir.path, "origin"), screenMs: 200 });
  try {
    const base = ["--base-url", origin.url, "--api-key", "agent-key"];
    await writeFile(join(dir.path, "README.md"), "Notes an agent keeps while it works.");
    const create = (license: string) =>
      runCli([
        "create",
        "notes",
        "--title",
        "Agent notes",
        "--readme-file",
        join(dir.path, "README.md"),
        "--schema",
        JSON.stringify([{ name: "text", type: "string" }]),
        "--license",
        license,
        ...base,
      ]);
    const refused = await create("MIT");
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /^error: license must be one of platform-standard, CC0-1.0/);
    assertEquals(origin.seen.filter((s) => s.method === "POST").length, 0, "nothing was sent");
    const created = await create("odbl-1.0");
    assertEquals(created.code, 0, created.stderr);
    assertEquals(JSON.parse(origin.seen.find((s) => s.method === "POST")!.body).license, "ODbL-1.0");

    // The README inline with --readme, or from --readme-file: exactly one, of 20 to 20000 characters.
    const readme = "Links an agent found worth keeping.";
    const schema = ["--schema", JSON.stringify([{ name: "url", type: "string" }])];
    const inline = await runCli([
      "create",
      "links",
      "--title",
      "Agent links",
      "--readme",
      readme,
      ...schema,
      "--visibility",
      "public",
      ...base,
    ]);
    assertEquals([inline.code, inline.stdout], [0, `created links (public) on ${origin.url}\n`], inline.stderr);
    const creates = origin.seen.filter((s) => s.method === "POST" && s.path === "/projects");
    assertEquals(JSON.parse(creates[creates.length - 1].body).readme, readme);
    const detail: Json = await (await fetch(`${origin.url}/projects/links`)).json();
    assertEquals(detail.readme, readme, "the origin keeps the README as given");
    await writeFile(join(dir.path, "SHORT.md"), "Too short.");
    const sentBefore = origin.seen.length;
    const usage: [string[], string][] = [
      [[], "error: --readme TEXT or --readme-file FILE is missing (20-20000 characters)\n"],
      [
        ["--readme", readme, "--readme-file", join(dir.path, "README.md")],
        "error: give --readme or --readme-file, not both\n",
      ],
      [["--readme", "Too short."], "error: the README must be 20-20000 characters; --readme holds 10\n"],
      [
        ["--readme-file", join(dir.path, "SHORT.md")],
        `error: the README must be 20-20000 characters; --readme-file (${join(dir.path, "SHORT.md")}) holds 10\n`,
      ],
      [["--readme", "x".repeat(20_001)], "error: the README must be 20-20000 characters; --readme holds 20001\n"],
    ];
    for (const [flags, stderr] of usage) {
      const run = await runCli(["create", "other", "--title", "Other links", ...flags, ...schema, ...base]);
      assertEquals([run.code, run.stderr], [2, stderr], flags.join(" ").slice(0, 80));
    }
    assertEquals(origin.seen.length, sentBefore, "nothing was sent");

    const lines = Array.from({ length: 700 }, (_, i) => JSON.stringify({ text: `note ${i}` })).join("\n");
    await writeFile(join(dir.path, "notes.jsonl"), lines + "\n");
    const source = "Notes the agent wrote down, one a line.";
    const sent = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "notes.jsonl"),
      "--source",
      source,
      "--wait",
      "--json",
      ...base,
    ]);
    assertEquals(sent.code, 0, sent.stderr);
    const totals: Json = JSON.parse(sent.stdout);
    assertEquals([totals.batches, totals.merged, totals.rejected, totals.pending], [2, 700, 0, 0]);
    assertEquals(totals.answers.map((a: Json) => [a.status, a.sourceDeclaration]), [
      ["merged", source],
      ["merged", source],
    ]);
    const posted = origin.seen.filter((s) => s.method === "POST" && s.path === "/projects/notes/contribute");
    assertEquals(posted.map((s) => JSON.parse(s.body).sourceDeclaration), [source, source], "every batch declares it");
    const polls = origin.seen.filter((s) => s.path.startsWith("/projects/notes/contributions/"));
    assertEquals(polls.length >= 2, true, "each batch's answer was polled until final");
    assert(polls.every((s) => s.headers.authorization === "Bearer agent-key"), "polled with the key");

    // Without --wait the origin's first answer stands: pending, not polled, and the summary says so.
    await writeFile(join(dir.path, "later.jsonl"), ["a", "b", "c"].map((t) => JSON.stringify({ text: t })).join("\n"));
    const seenBefore = origin.seen.length;
    const unwaited = await runCli(["contribute", "notes", "--file", join(dir.path, "later.jsonl"), ...base]);
    assertEquals(unwaited.code, 0, unwaited.stderr);
    assertMatch(unwaited.stdout, /^pending {2}\S+ {2}3 records: the origin screens them \(--wait waits\)\n$/);
    assertEquals(
      unwaited.stderr,
      "notes: 3 records in 1 batch: 0 merged, 0 duplicates, 0 rejected, " +
        "3 pending (the origin screens them: --wait waits for the verdicts)\n",
    );
    const after = origin.seen.slice(seenBefore);
    assertEquals(after.filter((s) => s.path.startsWith("/projects/notes/contributions/")), [], "nothing polled");
    assertEquals(JSON.parse(after.find((s) => s.method === "POST")!.body), {
      records: [{ text: "a" }, { text: "b" }, { text: "c" }],
    }, "no sourceDeclaration without --source");

    // --source is 4 to 2000 characters, checked before anything is sent.
    const refusedBefore = origin.seen.length;
    for (const bad of ["abc", "x".repeat(2001)]) {
      const run = await runCli([
        "contribute",
        "notes",
        "--file",
        join(dir.path, "later.jsonl"),
        "--source",
        bad,
        ...base,
      ]);
      assertEquals([run.code, run.stderr], [2, "error: --source must be 4 to 2000 characters\n"]);
    }
    assertEquals(origin.seen.length, refusedBefore, "nothing was sent");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
