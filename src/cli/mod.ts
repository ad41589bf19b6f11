/**
 * The `svc` command line: `main(args)` runs one command and resolves with
 * its exit code.
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const code = await main(["--version"]); // prints the version; 0
 * ```
 *
 * @module
 */
export { main } from "./main.ts";
