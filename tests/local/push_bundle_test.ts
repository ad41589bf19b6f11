import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SvcError, ValueError } from "../../mod.ts";
import { OriginClient as Client } from "../../src/origin/mod.ts";
import { promote, pushBundle, readBundleHeader, saveBundle } from "../../src/local/mod.ts";
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { members, rewrite } from "../support/bundle_edit.ts";
import type { TestOrigin } from "../support/origin.ts";
import { withLocalNotes } from "../support/promote_fixture.ts";
import { AGENT_KEY, createProject, withUploadOrigin } from "../support/push_fixture.ts";
import { tempDir } from "../support/store_fixture.ts";

function client(origin: TestOrigin): Client {
  return new Client({ baseUrl: origin.url, apiKey: AGENT_KEY });
}

async function originRecords(origin: TestOrigin, slug: string): Promise<Json[]> {
  const res = await fetch(`${origin.url}/projects/${slug}/data?limit=1000`, {
    headers: { authorization: `Bearer ${AGENT_KEY}` },
  });
  return (await res.json()).records;
}

Deno.test("pushBundle: the bundle is loaded, its records read back from the parts and merged on the origin; the records file is reused while newer than the bundle", async () => {
  await withLocalNotes(2, async (node) => {
    await withUploadOrigin(async (origin, scratch) => {
      await createProject(origin, "notes");
      const file = join(scratch, "notes-v2.svc");
      await saveBundle(node.store, "notes", null, file);
      const store = join(scratch, "store");
      const result = await pushBundle(client(origin), file, "notes", { store });
      assertEquals([result.status, result.acceptedCount, result.mergedVersion], ["merged", 20, 1]);
      assertEquals(result.bundle.project, "notes");
      const header = await readBundleHeader(file);
      assertEquals([result.bundle.version, result.bundle.records, result.bundle.parts], [2, 20, header.parts]);
      assertEquals(result.bundle.manifestSha256, header.manifestSha256);
      assertEquals(header.source, "local", "a node's local project is bundled with source local");
      assertMatch(
        String(result.sourceDeclaration),
        /^Imported from bundle notes-v2\.svc: notes v2 \(20 records\), saved .+; original license .+\.$/,
      );
      const records = await originRecords(origin, "notes");
      assertEquals(records.map((r) => r.id).sort((a, b) => Number(a) - Number(b)), [...Array(20).keys()]);
      assertEquals(records.find((r) => r.id === 3), { id: 3, text: "note 3" }, "nulls dropped, the record as written");
      assert((await readdir(store)).includes("notes"), "the bundle was loaded into the store");
      assertEquals((await readdir(scratch)).sort(), ["notes-v2.svc", "store"], "the records file is removed after");

      // A records file newer than the bundle is what is pushed (an interrupted push resumes from it).
      await createProject(origin, "other");
      const kept = `${file}.records.jsonl`;
      await writeFile(kept, '{"id":100,"text":"kept"}\n');
      const reused = await pushBundle(client(origin), file, "other", { store });
      assertEquals([reused.status, reused.acceptedCount], ["merged", 1]);
      assertEquals(await originRecords(origin, "other"), [{ id: 100, text: "kept" }]);
      // An older one is written again from the parts.
      await writeFile(kept, '{"id":100,"text":"stale"}\n');
      const past = new Date(Date.now() - 3_600_000);
      await utimes(kept, past, past);
      const rewritten = await pushBundle(client(origin), file, "other", { store });
      assertEquals([rewritten.status, rewritten.acceptedCount], ["merged", 20]);
      await assertRejects(() => stat(kept));
    });
  });
});

Deno.test("pushBundle: a paid bundle is refused unless allowPaid, before anything is loaded; a missing project says create it first", async () => {
  await withLocalNotes(1, async (node) => {
    await withUploadOrigin(async (origin, scratch) => {
      await createProject(origin, "notes");
      const file = join(scratch, "paid.svc");
      await saveBundle(node.store, "notes", null, file);
      await rewrite(file, (m) =>
        m.map(([name, body]) => {
          if (name !== "svc-bundle.json") return [name, body];
          const header = JSON.parse(new TextDecoder().decode(body));
          return [name, new TextEncoder().encode(JSON.stringify({ ...header, access: "paid" }))];
        }));
      assertEquals((await members(file))[0][0], "svc-bundle.json");
      const store = join(scratch, "store");
      const e = await assertRejects(() => pushBundle(client(origin), file, "notes", { store }));
      assert(e instanceof ValueError);
      assertMatch(
        e.message,
        /^notes is a paid project: republishing it needs the maintainer's rights, so pass allowPaid/,
      );
      await assertRejects(() => stat(store));
      assertEquals(origin.seen.filter((s) => s.path.includes("/uploads")).length, 0);
      const allowed = await pushBundle(client(origin), file, "notes", { store, allowPaid: true });
      assertEquals([allowed.status, allowed.acceptedCount], ["merged", 10], "allowPaid pushes it");

      const plain = join(scratch, "plain.svc");
      await saveBundle(node.store, "notes", null, plain);
      const missing = await assertRejects(() => pushBundle(client(origin), plain, "nowhere", { store }));
      assert(missing instanceof SvcError && missing.status === 404, missing.message);
      assertMatch(missing.message, /^nowhere is not on the origin: create the project first/);
    });
  });
});

Deno.test("promote: a node's local project to the origin, merged, with the result's promoted; again it is up to date; --to another project", async () => {
  await withLocalNotes(3, async (node) => {
    await withUploadOrigin(async (origin) => {
      await createProject(origin, "notes");
      const first = await promote(client(origin), "notes", { store: node.store, env: {} });
      assertEquals([first.status, first.acceptedCount, first.mergedVersion], ["merged", 30, 1]);
      assertEquals(first.promoted, { from: "notes", version: 3, to: "notes", records: 30 });
      assertEquals(first.sourceDeclaration, "Promoted from a SVC node: local project notes v3 (30 records).");
      assertEquals((await originRecords(origin, "notes")).length, 30);
      const again = await promote(client(origin), "notes", { store: node.store, env: {} });
      assertEquals([again.status, (again.verdict as Json).gate], ["rejected", "dedup"]);
      await createProject(origin, "team");
      const to = await promote(client(origin), "notes", { store: node.store, to: "team", env: {} });
      assertEquals([to.status, to.acceptedCount], ["merged", 30]);
      assertEquals(to.promoted, { from: "notes", version: 3, to: "team", records: 30 });
    });
  });
});

Deno.test("promote refuses a copy (not local), a project with no version, SVC_VERIFY set, and a node (405: push goes to the origin)", async () => {
  await withLocalNotes(1, async (node) => {
    await withUploadOrigin(async (origin) => {
      await createProject(origin, "cities");
      const copy = await assertRejects(
        () => promote(client(origin), "cities", { store: node.store, env: {} }),
      );
      assert(copy instanceof ValueError);
      assertEquals(
        copy.message,
        `cities in ${node.store} is not a local project: only projects created on a node are promoted`,
      );
      const verify = await assertRejects(
        () => promote(client(origin), "notes", { store: node.store, env: { SVC_VERIFY: "1" } }),
      );
      assert(verify instanceof ValueError);
      assertMatch(verify.message, /cannot run while SVC_VERIFY is set: unset it$/);
      const empty = await tempDir();
      try {
        const dir = join(empty.path, "fresh");
        await Deno.mkdir(dir);
        await writeFile(join(dir, "project.json"), JSON.stringify({ slug: "fresh", local: true }));
        const none = await assertRejects(() => promote(client(origin), "fresh", { store: empty.path, env: {} }));
        assertEquals((none as Error).message, `fresh has no version in ${empty.path} yet`);
      } finally {
        await empty.cleanup();
      }
    });
    const atNode = await assertRejects(
      () => promote(new Client({ baseUrl: node.url, apiKey: "k" }), "notes", { store: node.store, env: {} }),
    );
    assert(atNode instanceof SvcError && atNode.status === 405, atNode.message);
    assertMatch(atNode.message, /is a node, and push goes to the origin \(a node answers 405 to uploads\)/);
    assertEquals(JSON.parse(await readFile(join(node.store, "notes", "project.json"), "utf8")).local, true);
  });
});
