/**
 * Symbolic links planted in a store are never followed, over a node on a
 * socket: a project folder linked outside the store, a `parts/` folder
 * linked to another project's, a version folder and a manifest linked to
 * another's, `project.json`, a contributions folder and the recipients'
 * folder linked elsewhere. Each answers as if nothing were there (404, or
 * the version not whole), writes into a project holding a link are refused
 * before they start, nothing outside the store is read or written, and the
 * node's log names every link it refused.
 */
import { cp, mkdir, readdir, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { post } from "../support/local_project.ts";
import { withNode } from "../support/node.ts";
import { tempDir } from "../support/store_fixture.ts";
import { addRecipient, listRecipients } from "../../src/sharing/mod.ts";

const TOKEN = "node-token-for-symlink-tests";
const auth = { authorization: `Bearer ${TOKEN}` };

const NOTES = {
  slug: "notes",
  title: "Notes",
  readme: "Notes kept while working, one per record.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }], allowExtra: false },
};

async function statusOf(url: string, path: string): Promise<number> {
  const res = await fetch(`${url}${path}`, { headers: auth });
  await res.body?.cancel();
  return res.status;
}

Deno.test("links planted in a store are refused as absent, logged, and never followed for reads or writes", async () => {
  const outside = await tempDir("svc-outside-");
  // The node's warnings go to stderr: kept here for the test to read.
  const warned: string[] = [];
  const stderr = console.error;
  console.error = (...args: unknown[]) => void warned.push(args.map(String).join(" "));
  try {
    await withNode({ token: TOKEN }, async ({ url, store, fixture }) => {
      const cityPart = fixture.v2.partPaths[0].split("/").pop()!;
      // 1. a project folder that is a link to a copy of cities kept outside the store
      await cp(join(store, "cities"), join(outside.path, "evil"), { recursive: true });
      await symlink(join(outside.path, "evil"), join(store, "evil"));
      // 2. a project whose parts/ is a link to cities' parts, with cities' manifest
      await mkdir(join(store, "thief", "v2"), { recursive: true });
      await cp(join(store, "cities", "v2", "manifest.json"), join(store, "thief", "v2", "manifest.json"));
      await symlink(join(store, "cities", "parts"), join(store, "thief", "parts"));
      // 3. a project whose version folder is a link to cities' v2 and whose v1 manifest is a link to cities'
      await mkdir(join(store, "mimic", "v1"), { recursive: true });
      await cp(join(store, "cities", "parts"), join(store, "mimic", "parts"), { recursive: true });
      await symlink(join(store, "cities", "v2"), join(store, "mimic", "v2"));
      await symlink(join(store, "cities", "v1", "manifest.json"), join(store, "mimic", "v1", "manifest.json"));
      // 4. project.json of bare linked to cities'
      await symlink(join(store, "cities", "project.json"), join(store, "bare", "project.json"));

      const { projects } = await (await fetch(`${url}/projects`, { headers: auth })).json() as { projects: Json[] };
      assertEquals(projects.map((p) => p.slug).sort(), ["bare", "cities", "mimic", "thief"]);
      for (
        const path of [
          "/projects/evil",
          "/projects/evil/data",
          "/projects/evil/manifest",
          `/parts/evil/${cityPart}`,
          "/delta-sharing/shares/svc/schemas/default/tables/evil/version",
          "/projects/thief/data",
          `/parts/thief/${cityPart}`,
          "/projects/mimic/data?version=2",
          "/projects/mimic/manifest?version=1",
          "/delta-sharing/shares/svc/schemas/default/tables/mimic/version",
        ]
      ) {
        const status = await statusOf(url, path);
        assert(status >= 400 && status < 500, `${path}: ${status}`);
      }
      const thief: Json = await (await fetch(`${url}/projects/thief`, { headers: auth })).json();
      assertEquals(thief.versions ?? [], []);
      const bare: Json = await (await fetch(`${url}/projects/bare`, { headers: auth })).json();
      assert(bare.title !== "World cities", "bare's linked project.json is not read");
      assertEquals(await statusOf(url, `/parts/cities/${cityPart}`), 200, "the real project still answers");

      // 5. a local project whose contributions/ is moved outside and linked back
      assertEquals((await post(url, "/projects", NOTES, auth)).status, 201);
      const first = await post(url, "/projects/notes/contribute", { records: [{ id: 1, text: "one" }] }, auth);
      assertEquals(first.status, 201);
      await rename(join(store, "notes", "contributions"), join(outside.path, "contributions"));
      await symlink(join(outside.path, "contributions"), join(store, "notes", "contributions"));
      const before = await readdir(join(outside.path, "contributions"));
      const second = await post(url, "/projects/notes/contribute", { records: [{ id: 2, text: "two" }] }, auth);
      assertEquals(second.status, 500, second.text);
      assertEquals(await readdir(join(outside.path, "contributions")), before, "nothing written through the link");
      const manifest: Json = await (await fetch(`${url}/projects/notes/manifest`, { headers: auth })).json();
      assertEquals(manifest.version, 1, "the refused write made no version");

      // 6. the recipients' folder linked to one outside holding a recipient the node never made
      const { token } = await addRecipient(outside.path, "planted", null, new Date());
      await symlink(join(outside.path, ".sharing"), join(store, ".sharing"));
      const planted = await fetch(`${url}/delta-sharing/shares`, { headers: { authorization: `Bearer ${token}` } });
      assertEquals(planted.status, 401);
      await planted.body?.cancel();
      assertEquals((await listRecipients(outside.path)).length, 1);

      const refused = warned.filter((l) => l.includes("is a symbolic link; refused")).join("\n");
      for (const link of ["evil", "thief/parts", "mimic/v2", "mimic/v1/manifest.json", "bare/project.json"]) {
        assert(refused.includes(`store: ${link} is a symbolic link`), `${link} not logged:\n${refused}`);
      }
      for (const link of ["notes/contributions", ".sharing"]) {
        assert(refused.includes(`store: ${link} is a symbolic link`), `${link} not logged:\n${refused}`);
      }
    });
  } finally {
    console.error = stderr;
    await outside.cleanup();
  }
});
