#!/usr/bin/env -S deno run -A
/**
 * The `svc` command line.
 *
 * ```sh
 * deno run -A cli.ts serve --store svc-data
 * ```
 *
 * @module
 */
import { main, runSvc } from "./src/cli/mod.ts";
import { exit } from "./src/runtime/mod.ts";
import process from "node:process";

export { main };

// `import.meta.main` is Deno's (and Node 24's); Node 20's types lack it, so it is read as optional.
if ((import.meta as ImportMeta & { main?: boolean }).main) {
  exit(await runSvc(process.argv.slice(2)));
}
