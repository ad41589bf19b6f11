import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { planParts } from "../../../src/origin/client/_upload_state.ts";
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import { runCli, spawnCli } from "../../support/cli_process.ts";
import { withNode } from "../../support/node.ts";
import type { TestOrigin } from "../../support/origin.ts";
import {
  AGENT_KEY,
  createProject,
  heldParts,
  partNumber,
  partPuts,
  partsSettled,
  stateWithEtags,
  uploadState,
  withUploadOrigin,
  writeRecords,
} from "../../support/push_fixture.ts";

const ID = "[0-9a-f-]{36}";

function pushArgs(origin: TestOrigin, slug: string, file: string, ...more: string[]): string[] {
  return ["push", slug, "--file", file, "--base-url", origin.url, "--api-key", AGENT_KEY, ...more];
}

Deno.test("svc push prints what 2.1 says: the parts, MB and parts sent, the contribution, and with --wait the verdict", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "notes");
    const file = join(scratch, "notes.jsonl");
    await writeFile(file, '{"id":1,"text":"one"}\n{"id":2,"text":"two"}\n{"id":3,"text":"three"}\n');
    const plain = await runCli(pushArgs(origin, "notes", file));
    assertEquals(plain.code, 0, plain.stderr);
    assertMatch(
      plain.stdout,
      new RegExp(`^pushed notes: 1 part\\(s\\) \\(0\\.0 MB, 1 transferred\\) → contribution ${ID}\n$`),
    );
    const gz = file.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");
    assertMatch(
      plain.stderr,
      new RegExp(`^gzip ${gz}: \\d+ B in \\d+\\.\\d s\npush notes: \\d+ B · 1/1 parts in \\d+\\.\\d s\n$`),
    );
    assertEquals(await readdir(scratch), ["notes.jsonl"]);

    await createProject(origin, "waited");
    const merged = await runCli(pushArgs(origin, "waited", file, "--wait", "--no-progress", "--source", "typed in"));
    assertEquals([merged.code, merged.stderr], [0, ""]);
    assertMatch(
      merged.stdout,
      new RegExp(
        `^pushed waited: 1 part\\(s\\) \\(0\\.0 MB, 1 transferred\\) → contribution ${ID} → merged \\(v1, 3 accepted\\)\n$`,
      ),
    );
    const init = origin.seen.findLast((s) => s.path === "/projects/waited/uploads")!;
    assertEquals(JSON.parse(init.body).sourceDeclaration, "typed in");
    const dedup = await runCli(pushArgs(origin, "waited", file, "--wait", "--no-progress"));
    assertEquals(dedup.code, 0, dedup.stderr);
    assertMatch(dedup.stdout, / → nothing new: every record is already there \(no new version\)\n$/);

    await writeFile(file, '{"id":"four","text":"4"}\n');
    const rejected = await runCli(pushArgs(origin, "waited", file, "--wait", "--no-progress"));
    assertEquals(rejected.code, 0, "a rejection is an answer, as 2.1 prints it (exit 0)");
    assertMatch(rejected.stdout, / → rejected \(schema\): line 1: .+\n$/);

    await writeFile(file, '{"id":5,"text":"five"}\n');
    const json = await runCli(pushArgs(origin, "waited", file, "--json", "--wait", "--no-gzip", "--no-progress"));
    assertEquals(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assertEquals([result.parts, result.uploadedParts, result.bytes, result.status, result.mergedVersion], [
      1,
      1,
      23,
      "merged",
      2,
    ]);
    assertEquals(result.id, result.contributionId);
    const raw = origin.seen.findLast((s) => s.path === "/projects/waited/uploads")!;
    assertEquals(JSON.parse(raw.body), {
      bytes: 23,
      parts: 1,
      partSize: 8 * 1024 * 1024,
      sourceDeclaration: null,
      compression: "none",
    });
    await runCli(pushArgs(origin, "waited", file, "--part-size", "6.5", "--workers", "2", "--no-progress"));
    assertEquals(
      JSON.parse(origin.seen.findLast((s) => s.path === "/projects/waited/uploads")!.body).partSize,
      6815744,
    );
  });
});

Deno.test("svc push: usage errors exit 2, a missing key or file and a node exit 1 with what to do", async () => {
  const usage: [string[], string][] = [
    [["push"], "error: svc push takes one project slug\n"],
    [["push", "notes"], "error: svc push needs --file FILE\n"],
    [
      ["push", "notes", "--file", "x", "--part-size", "4"],
      'error: --part-size must be a number of MiB from 5 to 5120, not "4"\n',
    ],
    [
      ["push", "notes", "--file", "x", "--part-size", "many"],
      'error: --part-size must be a number of MiB from 5 to 5120, not "many"\n',
    ],
    [["push", "notes", "--file", "x", "--workers", "0"], "error: --workers must be 1-64\n"],
    [["push", "notes", "--file", "x", "--source", "abc"], "error: --source must be 4 to 2000 characters\n"],
    [["push", "notes", "--file", "x", "--gzip"], "error: unknown option --gzip (svc push --help lists the options)\n"],
  ];
  for (const [args, stderr] of usage) {
    const run = await runCli(args);
    assertEquals([run.code, run.stderr], [2, stderr], args.join(" "));
  }
  const [help, flag] = await Promise.all([runCli(["help", "push"]), runCli(["push", "--help"])]);
  assertEquals([help.code, help.stdout], [0, flag.stdout]);
  assertMatch(help.stdout, /^Usage: svc push SLUG --file FILE/);
  assert(help.stdout.includes("  -h, --help") && help.stdout.includes("resumable, gzip, up to 5 GB"));
  assertMatch((await runCli(["--help"])).stdout, /\n {2}push +upload a JSON-lines file \(the origin only/);

  const missing = await runCli(["push", "notes", "--file", "nope.jsonl", "--api-key", "k"]);
  assertEquals([missing.code, missing.stderr], [1, "error: cannot read nope.jsonl: not found\n"]);
  await withNode({}, async ({ url, store }) => {
    const file = join(store, "cities", "project.json"); // any readable file: the node is refused first
    const keyless = await runCli(["push", "cities", "--file", file, "--base-url", url], { SVC_API_KEY: "" });
    assertEquals([keyless.code, keyless.stderr], [
      1,
      "error: svc push needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; a node started with a token takes that token as the key)\n",
    ]);
    const node = await runCli(["push", "cities", "--file", file, "--base-url", url, "--api-key", "any"]);
    assertEquals([node.code, node.stdout], [1, ""]);
    assertEquals(
      node.stderr,
      `error: ${url} is a node, and push goes to the origin (a node answers 405 to uploads): set the base URL to ` +
        "the origin (SVC_BASE_URL, --base-url); a node's local projects take records with contribute\n",
    );
  });
});

Deno.test("svc push killed (SIGKILL) at random points resumes: only the missing parts are sent, and the result is whole", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    const file = join(scratch, "records.jsonl");
    const records = 36_000;
    await writeRecords(file, records, 0, 7);
    const { parts } = planParts(gzipSync(await readFile(file), { level: 6 }).byteLength, 1);
    assert(parts >= 4, `${parts} parts`);
    const uploads = origin.app!.uploads;
    const kills = [
      0,
      ...Array.from({ length: 3 }, () => 1 + Math.floor(Math.random() * (parts - 1))),
    ];
    console.log(
      `${parts} parts; killed after the /healthz check, as the upload opens, after ${kills.join(", ")} parts, ` +
        "and at complete",
    );
    let round = 0;
    const rerun = async (slug: string, transferred: number, from: number) => {
      const run = await runCli(pushArgs(origin, slug, file, "--part-size", "5", "--wait"));
      assertEquals(run.code, 0, run.stderr);
      assertMatch(
        run.stdout,
        new RegExp(
          `^pushed ${slug}: ${parts} part\\(s\\) \\(\\d+\\.\\d MB, ${transferred} transferred\\) → contribution ${ID}` +
            ` → merged \\(v1, ${records} accepted\\)\n$`,
        ),
      );
      assertEquals(await readdir(scratch), ["records.jsonl"], "state and gzip copy removed");
      for (const put of partPuts(origin, from)) assertEquals(put.headers.authorization, undefined);
      return run.stderr;
    };

    // Killed right after asking /healthz (before or while the gzip copy is made): the rerun does it all.
    let slug = `kill-${round++}`;
    await createProject(origin, slug);
    let mark = origin.seen.length;
    const healthz = origin.nextRequest((s) => s.path === "/healthz");
    let child = spawnCli(pushArgs(origin, slug, file, "--part-size", "5"));
    await healthz;
    child.kill("SIGKILL");
    await child.status;
    await rerun(slug, parts, mark);

    // Killed as the origin opens the upload (the answer may or may not have reached the state file): the gzip copy
    // is whole by then, so the rerun does not make it again, and sends every part (to this upload or a new one).
    slug = `kill-${round++}`;
    await createProject(origin, slug);
    const opened = uploads.events.length;
    child = spawnCli(pushArgs(origin, slug, file, "--part-size", "5"));
    await uploads.waitForEvent((e) => e.type === "init" && uploads.events.indexOf(e) >= opened);
    child.kill("SIGKILL");
    await child.status;
    await partsSettled(origin);
    mark = origin.seen.length;
    const stderr = await rerun(slug, parts, mark);
    assert(!stderr.includes("gzip "), `the copy was kept: ${stderr}`);

    // Killed once the origin answered K parts (the others held unanswered) and the state file says so.
    for (const answered of kills) {
      slug = `kill-${round++}`;
      await createProject(origin, slug);
      uploads.holdPartsAfter(answered);
      const from = uploads.events.length;
      child = spawnCli(pushArgs(origin, slug, file, "--part-size", "5", "--workers", "4"));
      await stateWithEtags(file, answered);
      await heldParts(origin, Math.min(4, parts - answered), from);
      child.kill("SIGKILL");
      await child.status;
      uploads.release();
      await partsSettled(origin);
      const state = await uploadState(file);
      const kept = Object.keys(state.etags).map(Number);
      assertEquals(kept.length, answered);
      const inits = uploads.events.filter((e) => e.type === "init").length;
      mark = origin.seen.length;
      await rerun(slug, parts - answered, mark);
      const sent = partPuts(origin, mark).map((p) => partNumber(p.path)).sort((a, b) => a - b);
      const missing = Array.from({ length: parts }, (_, i) => i + 1).filter((n) => !kept.includes(n));
      assertEquals(sent, missing, `after ${answered} parts: only the missing ones`);
      assert(partPuts(origin, mark).every((p) => p.path.includes(state.uploadId)), "the same upload");
      assertEquals(uploads.events.filter((e) => e.type === "init").length, inits, "no new upload");
    }

    // Killed while the origin completes the upload: the rerun completes it again and gets the same contribution.
    slug = `kill-${round++}`;
    await createProject(origin, slug);
    uploads.holdComplete();
    const events = uploads.events.length;
    child = spawnCli(pushArgs(origin, slug, file, "--part-size", "5"));
    await uploads.waitForEvent((e) => e.type === "complete" && uploads.events.indexOf(e) >= events);
    child.kill("SIGKILL");
    await child.status;
    uploads.release();
    await partsSettled(origin);
    mark = origin.seen.length;
    await rerun(slug, 0, mark);
    assertEquals(partPuts(origin, mark), [], "no part sent again");
  });
});

Deno.test("svc push: Ctrl-C exits 130 saying how many parts are stored; the same command resumes", async () => {
  await withUploadOrigin(async (origin, scratch) => {
    await createProject(origin, "notes");
    const file = join(scratch, "notes.jsonl");
    await writeRecords(file, 17_500);
    const uploads = origin.app!.uploads;
    uploads.holdPartsAfter(1);
    const args = pushArgs(origin, "notes", file, "--no-gzip", "--part-size", "5", "--no-progress");
    const child = spawnCli(args, { piped: true });
    const stderr = new Response(child.stderr).text();
    const stdout = new Response(child.stdout).text();
    await child.stdin.close();
    const state = await stateWithEtags(file, 1);
    child.kill("SIGINT");
    assertEquals((await child.status).code, 130);
    uploads.release();
    assertEquals(await stdout, "");
    assertEquals(
      await stderr,
      `interrupted: 1 of 3 parts are stored (upload ${state.uploadId}, state in ${file}.svc-upload.json); ` +
        "run the same command to resume\n",
    );
    const run = await runCli([...args, "--wait"]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stdout, / \(12\.6 MB, 2 transferred\) → contribution .* → merged \(v1, 17500 accepted\)\n$/);
  });
});
