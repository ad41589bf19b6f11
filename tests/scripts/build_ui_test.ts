import { assert } from "../support/assert.ts";
import { bundleUi, UI_MODULE, uiModule } from "../../scripts/build_ui.ts";
import { APP_JS } from "../../src/node/ui/_app_js.ts";
import { readFile } from "node:fs/promises";

Deno.test("the committed /ui/app.js is the bundle of src/node/ui/browser/ as it is now (deno task build:ui)", async () => {
  const fresh = await bundleUi();
  // Compared whole, reported short: a diff of the bundle's one line of JSON would say nothing.
  assert(
    await readFile(UI_MODULE, "utf8") === uiModule(fresh),
    "src/node/ui/_app_js.ts is stale: run deno task build:ui",
  );
  assert(APP_JS === fresh);
});

Deno.test("the bundle is one strict script that compiles and names no module file", () => {
  assert(APP_JS.startsWith('"use strict";\n(() => {'));
  new Function(APP_JS);
  assert(!/\bimport\s*[({"']|\bexport\s/.test(APP_JS), "a classic script: no import or export left");
});
