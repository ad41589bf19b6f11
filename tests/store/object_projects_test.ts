import { assertEquals, assertRejects } from "../support/assert.ts";
import { objectProjects } from "../../src/store/_object_projects.ts";
import type { S3Client } from "../../src/objectstore/mod.ts";

Deno.test("a project's look whose listing fails leaves no read of project.json failing unhandled behind it", async () => {
  let gets = 0;
  // The bucket answers its top listing, then fails: the journal's listing at once, project.json's read a moment later.
  const client = {
    listPage: (_prefix: string, options: { delimiter?: string }) =>
      options.delimiter === "/"
        ? Promise.resolve({ prefixes: ["notes/"], objects: [], next: undefined })
        : Promise.reject(new Error("the journal's listing failed")),
    get: () => {
      gets++;
      return new Promise((_, reject) => setTimeout(() => reject(new Error("project.json's read failed")), 30));
    },
  } as unknown as S3Client;
  const projects = objectProjects(client, 1000, () => {});
  await assertRejects(() => projects.project("notes"), /the journal's listing failed/);
  // An unhandled rejection here fails this test (Deno's test runner reports it against the module).
  await new Promise((r) => setTimeout(r, 100));
  assertEquals(gets, 1, "project.json was read beside the listing");
});
