/**
 * The one `svc` command: `main(args)` runs one command, the node's or the
 * origin's, and resolves with its exit code; `runSvc(args)` is the `svc`
 * program itself (under Deno, `serve` runs its node under narrowed
 * permissions).
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const code = await main(["--version"]); // prints the version; 0
 * ```
 *
 * @module
 */
export { main, runSvc } from "./entry.ts";
