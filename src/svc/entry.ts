/**
 * The `svc` process's entry: light (it imports nothing), so that `svc serve`
 * under Deno is narrowed before the command line's code loads; everything
 * loads when it is needed.
 *
 * @module
 */

/**
 * Runs the command line `args` and resolves with the exit code: 0 done,
 * 1 failed (`error: ...` on stderr), 2 usage error.
 *
 * @example
 * ```ts
 * import { main } from "./entry.ts";
 * const code = await main(["--version"]);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const { main } = await import("./main.ts");
  return await main(args);
}

/**
 * Runs `svc args...` as the process's own program: `serve` under Deno with
 * broad permissions runs its node as a narrowed child
 * ({@linkcode serveSandboxed}); anything else is {@linkcode main}.
 *
 * @example
 * ```ts ignore
 * import { runSvc } from "./entry.ts";
 * Deno.exit(await runSvc(Deno.args));
 * ```
 */
export async function runSvc(args: string[]): Promise<number> {
  // Loaded only for serve: the other commands never narrow.
  const sandboxed = args.includes("serve") ? await (await import("../cli/mod.ts")).serveSandboxed(args) : null;
  return sandboxed ?? (await main(args));
}
