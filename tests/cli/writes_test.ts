import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
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
      ...base,
    ]);
    assertEquals([created.code, created.stdout], [0, `created notes (private) on ${node.url}\n`], created.stderr);
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
    const page: Json = await (await fetch(`${node.url}/projects/notes/data?limit=20`)).text();
    assertMatch(page, /"id":9007199254740993/);
    const again = await runCli(["contribute", "notes", "--file", join(dir.path, "records.jsonl"), ...base, "--json"]);
    const totals = JSON.parse(again.stdout);
    assertEquals([totals.batches, totals.replayed, totals.merged], [3, 3, 1201], "the same file replays its answers");
    const version: Json = await (await fetch(`${node.url}/projects/notes`)).json();
    assertEquals(version.localVersions, [3, 2, 1], "no new version from the replay");
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
    assertMatch(missing.stderr, /error: .*project not found on this node/);
    assertEquals((await runCli(["contribute", "notes", ...base])).code, 2);
    const keyless = await runCli([
      "contribute",
      "notes",
      "--file",
      join(dir.path, "bad.jsonl"),
      "--base-url",
      node.url,
    ]);
    assertEquals(keyless.code, 1);
    assertEquals(
      keyless.stderr,
      "error: svc contribute needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; a node without a token takes any)\n",
    );
    assertEquals((await runCli(["create", "notes", "--title", "x", ...base])).code, 2);
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

Deno.test("svc create and svc contribute against the origin: the license list, and batches screened later are waited for", async () => {
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

    const lines = Array.from({ length: 700 }, (_, i) => JSON.stringify({ text: `note ${i}` })).join("\n");
    await writeFile(join(dir.path, "notes.jsonl"), lines + "\n");
    const sent = await runCli(["contribute", "notes", "--file", join(dir.path, "notes.jsonl"), "--json", ...base]);
    assertEquals(sent.code, 0, sent.stderr);
    const totals: Json = JSON.parse(sent.stdout);
    assertEquals([totals.batches, totals.merged, totals.rejected], [2, 700, 0]);
    assertEquals(totals.answers.map((a: Json) => a.status), ["merged", "merged"]);
    const polls = origin.seen.filter((s) => s.path.startsWith("/projects/notes/contributions/"));
    assertEquals(polls.length >= 2, true, "each batch's answer was polled until final");
  } finally {
    await origin.close();
    await dir.cleanup();
  }
});
