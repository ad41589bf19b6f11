import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { saveBundle } from "../../src/local/bundle.ts";
import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { rewrite } from "../support/bundle_edit.ts";
import { runCli } from "../support/cli_process.ts";
import { post } from "../support/local_project.ts";
import type { TestOrigin } from "../support/origin.ts";
import { withLocalNotes } from "../support/promote_fixture.ts";
import { AGENT_KEY, createProject, withUploadOrigin } from "../support/push_fixture.ts";

const ID = "[0-9a-f-]{36}";

function at(origin: TestOrigin, ...args: string[]): string[] {
  return [...args, "--base-url", origin.url, "--api-key", AGENT_KEY, "--no-progress"];
}

/** A project whose id is a string: the node's integer ids fail its schema gate. */
async function createWords(origin: TestOrigin): Promise<void> {
  const res = await post(origin.url, "/projects", {
    slug: "words",
    title: "Words",
    readme: "Ids that are strings.",
    schemaDef: { fields: [{ name: "id", type: "string" }, { name: "text", type: "string" }] },
  }, { authorization: `Bearer ${AGENT_KEY}` });
  if (res.status !== 201) throw new Error(res.text);
}

Deno.test("svc load FILE --push SLUG prints the lines of 2.2: merged, nothing new, rejected (exit 1), uploaded (--no-wait); paid refused without --allow-paid", async () => {
  await withLocalNotes(2, async (node) => {
    await withUploadOrigin(async (origin, scratch) => {
      await createProject(origin, "notes");
      const file = join(scratch, "notes-v2.svc");
      await saveBundle(node.store, "notes", null, file);
      const store = join(scratch, "store");
      const merged = await runCli(at(origin, "load", file, "--push", "notes", "--store", store));
      assertEquals([merged.code, merged.stderr], [0, ""]);
      assertEquals(merged.stdout, "merged into notes v1 · accepted 20/20 from notes v2\n");
      const again = await runCli(at(origin, "load", file, "--push", "notes", "--store", store));
      assertEquals([again.code, again.stdout], [0, "nothing new: every record of notes v2 is already in notes\n"]);
      await createWords(origin);
      const rejected = await runCli(at(origin, "load", file, "--push", "words", "--store", store));
      assertEquals(rejected.code, 1);
      assertMatch(rejected.stdout, /^rejected by words \(schema\): .+\n$/);
      await createProject(origin, "later");
      const unwaited = await runCli(
        at(origin, "load", file, "--push", "later", "--store", store, "--no-wait", "--source", "from a bundle"),
      );
      assertEquals(unwaited.code, 0, unwaited.stderr);
      assertMatch(
        unwaited.stdout,
        new RegExp(`^uploaded · contribution ${ID} is submitted; the gates run on the origin\n$`),
      );
      const init = origin.seen.findLast((s) => s.path === "/projects/later/uploads")!;
      assertEquals(JSON.parse(init.body).sourceDeclaration, "from a bundle");
      const json = await runCli(at(origin, "load", file, "--push", "notes", "--store", store, "--json"));
      const result: Json = JSON.parse(json.stdout);
      assertEquals([json.code, result.status, (result.bundle as Json).records], [0, "rejected", 20]);

      await rewrite(file, (m) =>
        m.map(([name, body]) => {
          if (name !== "svc-bundle.json") return [name, body];
          const header = JSON.parse(new TextDecoder().decode(body));
          return [name, new TextEncoder().encode(JSON.stringify({ ...header, access: "paid" }))];
        }));
      const paid = await runCli(at(origin, "load", file, "--push", "notes", "--store", join(scratch, "paid")));
      assertEquals([paid.code, paid.stdout], [1, ""]);
      assertMatch(
        paid.stderr,
        /notes is a paid project: republishing it needs the maintainer's rights, so pass allowPaid \(--allow-paid\)/,
      );
      assertEquals((await readdir(scratch)).includes("paid"), false, "nothing loaded");
    });
  });
});

Deno.test("svc promote prints the lines of 2.3: promoted, up to date (exit 0), rejected (exit 1), uploaded (--no-wait), --json", async () => {
  await withLocalNotes(3, async (node) => {
    await withUploadOrigin(async (origin) => {
      await createProject(origin, "notes");
      const first = await runCli(at(origin, "promote", "notes", "--store", node.store));
      assertEquals([first.code, first.stderr], [0, ""]);
      assertEquals(
        first.stdout,
        `promoted notes v3 → notes v1 on ${origin.url} · accepted 30/30 (the rest were already there)\n`,
      );
      const again = await runCli(at(origin, "promote", "notes", "--store", node.store));
      assertEquals([again.code, again.stdout], [
        0,
        `up to date: every record of notes v3 is already in notes on ${origin.url}\n`,
      ]);
      await createWords(origin);
      const rejected = await runCli(at(origin, "promote", "notes", "--store", node.store, "--to", "words"));
      assertEquals(rejected.code, 1);
      assertMatch(rejected.stdout, /^rejected by words \(schema\): .+\n$/);
      await createProject(origin, "team");
      const unwaited = await runCli(at(origin, "promote", "notes", "--store", node.store, "--to", "team", "--no-wait"));
      assertEquals(unwaited.code, 0, unwaited.stderr);
      assertMatch(
        unwaited.stdout,
        new RegExp(`^uploaded · contribution ${ID} is submitted; the gates run on the origin\n$`),
      );
      await createProject(origin, "crew");
      const json = await runCli(at(origin, "promote", "notes", "--store", node.store, "--to", "crew", "--json"));
      const result: Json = JSON.parse(json.stdout);
      assertEquals([json.code, result.status, result.acceptedCount], [0, "merged", 30]);
      assertEquals(result.promoted, { from: "notes", version: 3, to: "crew", records: 30 });
    });
  });
});

Deno.test("svc promote refuses a copy, SVC_VERIFY set, and a node (405), each with a clear error and exit 1", async () => {
  await withLocalNotes(1, async (node) => {
    await withUploadOrigin(async (origin) => {
      await createProject(origin, "cities");
      const copy = await runCli(at(origin, "promote", "cities", "--store", node.store));
      assertEquals([copy.code, copy.stdout], [1, ""]);
      assertMatch(copy.stderr, /cities in .+ is not a local project: only projects created on a node are promoted/);
      const verify = await runCli(at(origin, "promote", "notes", "--store", node.store), { SVC_VERIFY: "1" });
      assertEquals(verify.code, 1);
      assertMatch(verify.stderr, /cannot run while SVC_VERIFY is set: unset it/);
    });
    const atNode = await runCli([
      "promote",
      "notes",
      "--store",
      node.store,
      "--base-url",
      node.url,
      "--api-key",
      "k",
      "--no-progress",
    ]);
    assertEquals(atNode.code, 1);
    assertMatch(atNode.stderr, /is a node, and push goes to the origin \(a node answers 405 to uploads\)/);
  });
});
