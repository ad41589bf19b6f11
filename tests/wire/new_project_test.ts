import { checkNewProject, namedAlikeButForCase, newProjectProblems } from "../../src/wire/mod.ts";
import { assertEquals, assertThrows } from "../support/assert.ts";

const GOOD = {
  slug: "notes",
  title: "My notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: { fields: [{ name: "text", type: "string" }] },
};

Deno.test("newProjectProblems lists every problem, in the origin's words; checkNewProject throws the first", () => {
  const bad = {
    slug: "Notes",
    title: "x",
    readme: "short",
    tags: ["Bad Tag"],
    visibility: "secret",
    schemaDef: {
      fields: [{ name: "1id", type: "int" }, { name: "text" }, { name: "text", type: "string" }, {
        name: "TEXT",
        type: "string",
      }],
    },
  };
  const problems = newProjectProblems(bad);
  assertEquals(problems, [
    'body/slug must match pattern "^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$"',
    "body/tags must be up to 8 tags matching ^[a-z0-9-]{2,30}$",
    "body/visibility must be public or private",
    "body/title must be a string of 4-140 characters",
    "body/readme must be a string of 20-20000 characters",
    "body/schemaDef/fields/0/name must match ^[a-zA-Z][a-zA-Z0-9_]{0,60}$",
    "body/schemaDef/fields/0/type must be one of string, number, integer, boolean",
    "body/schemaDef/fields/1/type must be one of string, number, integer, boolean",
    'body/schemaDef/fields: "text" is named twice',
    'body/schemaDef/fields: "text" and "TEXT" differ only in case (SQL column names ignore case)',
  ]);
  assertThrows(() => checkNewProject(bad), /^body\/slug must match pattern/);
  assertEquals(newProjectProblems(GOOD), []);
  assertEquals(checkNewProject(GOOD).visibility, "private");
  assertEquals(newProjectProblems([]), ["body must be a JSON object"]);
});

Deno.test("namedAlikeButForCase finds the first two names differing only in case", () => {
  assertEquals(namedAlikeButForCase(["id", "name", "x", "NAME", "Id"]), ["name", "NAME"]);
  assertEquals(namedAlikeButForCase(["id", "name", "id"]), null, "the same name twice is another problem");
  assertEquals(namedAlikeButForCase([]), null);
});
