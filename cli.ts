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
import { narrowServe } from "./src/launch/mod.ts";
import { main, runSvc } from "./src/svc/mod.ts";

export { main };

// `import.meta.main` is Deno's (and Node 24's); Node 20's types lack it, so it is read as optional.
if ((import.meta as ImportMeta & { main?: boolean }).main) {
  // Under Deno with broad permissions, `svc serve` becomes its narrowed node here, before anything else loads.
  narrowServe();
  const { default: process } = await import("node:process");
  const code = await runSvc(process.argv.slice(2));
  (await import("./src/runtime/mod.ts")).exit(code);
}
