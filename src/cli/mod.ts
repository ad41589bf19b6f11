/**
 * The `svc` command line: `main(args)` runs one command and resolves with
 * its exit code.
 *
 * @example
 * ```ts ignore
 * import { main } from "./mod.ts";
 * Deno.exit(await main(["--version"]));
 * ```
 *
 * @module
 */
export { main } from "./main.ts";
