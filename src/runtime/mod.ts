/**
 * The one place that knows which runtime runs the code: the listener under
 * the HTTP server, shutdown signals and exit. Everything else uses Web APIs
 * and `node:` built-ins, which Deno and Node both have.
 *
 * @module
 */
import process from "node:process";
import type { HttpServer, HttpServerOptions, Listen, ServeHandler } from "../http/mod.ts";
import { denoGlobal, listenDeno } from "./deno.ts";
import { listenNode } from "./node.ts";

export { onParentGone } from "./parent.ts";
export { fileStampOf, type LinkInfo, linkInfoOf, linkStampOf, type Stamp, stampOf } from "./stat.ts";
export { unrefTimer } from "./timers.ts";
export { cgroupMemoryLimit, cgroupOomKills } from "./cgroup.ts";
export { collectGarbage } from "./gc.ts";
export { type ModuleProcessOptions, spawnModule } from "./subprocess.ts";
export { confinedAbi, kernelLandlockAbi } from "./landlock.ts";
export {
  broadPermissions,
  canExecReplacing,
  execReplacing,
  KERNEL_LANDLOCK_ENV,
  landlockAbi,
  relaunchCommand,
} from "../launch/mod.ts";
export { permissionsNarrowed } from "./narrowed.ts";
export { keptTmpFolders, prepareView, type PrivateView, privateViewsWork, VIEW_ROOT } from "./private_view.ts";

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
 * The runtime's listener: `Deno.listen` with its own accept loop under Deno,
 * `node:net` under Node.
 */
export function runtimeListen(): Listen {
  const deno = denoGlobal();
  return deno ? listenDeno(deno) : listenNode;
}

/**
 * Serves `handler` with the node's HTTP/1.1 server over the runtime's
 * listener.
 *
 * @example
 * ```ts
 * import { serve } from "./mod.ts";
 * const server = await serve(async () => new Response("hi"), { hostname: "127.0.0.1", port: 0 }); // 0: a free port
 * await server.shutdown();
 * ```
 */
export async function serve(handler: ServeHandler, options: HttpServerOptions): Promise<HttpServer> {
  // Loaded when a server starts: the command line's other commands (and `svc serve` before it narrows) need none of it.
  const { serveHttp } = await import("../http/mod.ts");
  return serveHttp(runtimeListen(), handler, options);
}

/**
 * Calls `fn` on every SIGINT or SIGTERM (instead of the default of dying).
 *
 * @example
 * ```ts
 * import { onShutdownSignal } from "./mod.ts";
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
 * Keeps the process alive through a rejection or exception nobody handled:
 * `report` hears of it instead of the process dying (a server must outlive
 * one bad request).
 *
 * @example
 * ```ts
 * import { surviveStrayErrors } from "./mod.ts";
 * surviveStrayErrors((e) => console.error("error: unhandled:", e));
 * ```
 */
export function surviveStrayErrors(report: (error: unknown) => void): void {
  // A log reader that went away (stderr a closed pipe) is no error to report: reporting it would write to that
  // pipe again, fail again, and spin.
  const reported = (e: unknown) => {
    if ((e as { code?: string } | null)?.code !== "EPIPE") report(e);
  };
  if (denoGlobal()) {
    globalThis.addEventListener("unhandledrejection", (event) => {
      event.preventDefault();
      reported(event.reason);
    });
    globalThis.addEventListener("error", (event) => {
      event.preventDefault();
      reported(event.error);
    });
  } else {
    process.on("unhandledRejection", reported);
    process.on("uncaughtException", reported);
  }
}

/**
 * Lets a server outlive the reader of its output: once stdout or stderr is a
 * closed pipe (`svc serve 2>&1 | head`), what it writes there is dropped
 * instead of raising an error on every log line.
 *
 * @example
 * ```ts
 * import { outliveOutputReaders } from "./mod.ts";
 * outliveOutputReaders();
 * ```
 */
export function outliveOutputReaders(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
}

/**
 * Ends the process with `code`.
 */
export function exit(code: number): never {
  const deno = denoGlobal();
  if (deno) deno.exit(code);
  process.exit(code);
}
export { denoGlobal } from "./deno.ts";
export { tempRoot } from "./paths.ts";
export { homeOrNull } from "./paths.ts";
export { basePermissions, netTarget, type NodePaths, nodePermissionFlags, type NodeReach } from "./permissions.ts";
export { type ChildSignals, childSignals } from "./child_signals.ts";
export {
  localNodePaths,
  NO_DUCKDB_BINDING,
  onLauncherHangup,
  ownRelaunchCommand,
  runAsLauncher,
  withRealPath,
} from "./relaunch.ts";
