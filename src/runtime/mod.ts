/**
 * The one place that knows which runtime runs the code: serving a handler,
 * shutdown signals and exit. Everything else uses Web APIs and `node:`
 * built-ins, which Deno and Node both have.
 *
 * @module
 */
import process from "node:process";
import { denoGlobal, serveDeno } from "./deno.ts";
import { serveNode } from "./node.ts";
import type { RunningServer, ServeHandler, ServeOptions } from "./types.ts";

export type { RunningServer, ServeHandler, ServeInfo, ServeOptions } from "./types.ts";
export { type ModuleProcessOptions, spawnModule } from "./subprocess.ts";

/**
 * The runtime's name.
 *
 * @example
 * ```ts
 * import { runtimeName } from "./mod.ts";
 * console.log(runtimeName()); // "deno" or "node"
 * ```
 */
export function runtimeName(): "deno" | "node" {
  return denoGlobal() ? "deno" : "node";
}

/**
 * Serves `handler` with the runtime's own HTTP server (`Deno.serve`, or
 * `node:http` under Node).
 *
 * @example
 * ```ts ignore
 * const server = await serve(async () => new Response("hi"), { hostname: "127.0.0.1", port: 8686 });
 * await server.shutdown();
 * ```
 */
export function serve(handler: ServeHandler, options: ServeOptions): Promise<RunningServer> {
  const deno = denoGlobal();
  return deno ? serveDeno(deno, handler, options) : serveNode(handler, options);
}

/**
 * Calls `fn` on every SIGINT or SIGTERM (instead of the default of dying).
 *
 * @example
 * ```ts ignore
 * onShutdownSignal((signal) => console.error(`stopping on ${signal}`));
 * ```
 */
export function onShutdownSignal(fn: (signal: "SIGINT" | "SIGTERM") => void): void {
  const deno = denoGlobal();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    if (deno) deno.addSignalListener(signal, () => fn(signal));
    else process.on(signal, () => fn(signal));
  }
}

/**
 * Ends the process with `code`.
 *
 * @example
 * ```ts ignore
 * exit(130);
 * ```
 */
export function exit(code: number): never {
  const deno = denoGlobal();
  if (deno) deno.exit(code);
  process.exit(code);
}
