/**
 * The write guard of `no_follow.ts`: a write to a project is refused when
 * what it goes through is a symbolic link, and looks at those entries only,
 * never at the project's versions (one folder each), so its cost does not
 * grow with the project's history.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { tempDir } from "../support/store_fixture.ts";
import { projectLinks } from "../../src/store/mod.ts";

Deno.test("projectLinks names a link a write goes through, and none among the versions' folders", async () => {
  const store = await tempDir();
  const outside = await tempDir();
  try {
    const project = join(store.path, "notes");
    for (const name of ["parts", "contributions", "index"]) await mkdir(join(project, name), { recursive: true });
    await writeFile(join(project, "project.json"), "{}");
    // Thousands of versions, one a link (its reads refuse it: versionLink): no write goes through them.
    for (let v = 1; v <= 2_000; v++) await mkdir(join(project, `v${v}`));
    await symlink(outside.path, join(project, "v2001"));
    assertEquals(projectLinks(store.path, "notes"), null);
    for (const name of ["parts", "contributions", "index", "exports", "footers", "project.json", ".lock"]) {
      const at = join(project, name);
      await Deno.remove(at, { recursive: true }).catch(() => {});
      await symlink(outside.path, at);
      assertEquals(projectLinks(store.path, "notes"), `notes/${name}`, name);
      await Deno.remove(at);
    }
    await Deno.rename(project, join(outside.path, "notes"));
    await symlink(join(outside.path, "notes"), project);
    assertEquals(projectLinks(store.path, "notes"), "notes");
  } finally {
    await store.cleanup();
    await outside.cleanup();
  }
});
