/**
 * The node as a library: build one over a store and serve it on Deno or
 * Node with the same handler.
 *
 * @example
 * ```ts
 * import { serveNode } from "./server.ts";
 * // Port 0 takes a free port (the command line's default is 8686); the URL says which.
 * const node = await serveNode({ store: await Deno.makeTempDir(), host: "127.0.0.1", port: 0, token: null });
 * console.log(`serving on ${node.url}`);
 * await node.shutdown();
 * ```
 *
 * @module
 */
export {
  createNode,
  type NodeOptions,
  serveNode,
  type ServeNodeOptions,
  type ServingNode,
  type SvcNode,
} from "./src/node/mod.ts";
export {
  DEFAULT_LIMITS,
  type HttpLimits,
  type QuickAnswer,
  type QuickHandler,
  type RequestHeadView,
  type ServeInfo,
} from "./src/http/mod.ts";
export type { ConnInfo, FollowView, Handler, LogSink } from "./src/node/mod.ts";
export type { SqlPoolOptions } from "./src/sql/mod.ts";
