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
import { main } from "./src/cli/main.ts";
import { exit } from "./src/runtime/mod.ts";
import process from "node:process";

export { main };

if (import.meta.main) {
  exit(await main(process.argv.slice(2)));
}
