import { importedSpecifiers } from "../../scripts/build_npm.ts";
import { assertEquals } from "../support/assert.ts";

Deno.test("the npm build finds the packages a compiled file imports, and never a word of a string", () => {
  const compiled = [
    'import { a } from "@duckdb/node-api";',
    'export { b,\n  c } from "./local.js";',
    'import "side-effect";',
    'export * from "zod";',
    'const title = p.title + " · changes from " + (from === 0 ? "nothing" : "v" + from);',
    'const field = { name: "from", type: "y" };',
    'const m = await import("@modelcontextprotocol/sdk/server/index.js");',
    "const s = await import(specifier);",
  ].join("\n");
  assertEquals(importedSpecifiers(compiled), [
    "@duckdb/node-api",
    "./local.js",
    "side-effect",
    "zod",
    "@modelcontextprotocol/sdk/server/index.js",
  ]);
});
