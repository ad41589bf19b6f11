/**
 * The node as a library: build one over a store and serve it on Deno or
 * Node with the same handler.
 *
 * @example
 * ```ts ignore
 * import { serveNode } from "./server.ts";
 * const node = await serveNode({ store: "svc-data", host: "127.0.0.1", port: 8686, token: null });
 * console.log(`serving on ${node.url}`);
 * await node.shutdown();
 * ```
 *
 * @module
 */
import { createNode, type NodeOptions, type SvcNode } from "./src/node/mod.ts";
import { serve } from "./src/runtime/mod.ts";

export { createNode, type NodeOptions, type SvcNode } from "./src/node/mod.ts";
export type { ConnInfo, FollowView, Handler, LogSink } from "./src/node/mod.ts";
export type { SqlPoolOptions } from "./src/sql/mod.ts";

/** Options of {@linkcode serveNode}: the node's, plus the port. */
export interface ServeNodeOptions extends NodeOptions {
  /** Port to bind (0 picks a free one). */
  port: number;
}

/** A node that is serving. */
export interface ServingNode {
  /** The node's base URL as bound, e.g. `http://127.0.0.1:8686`. */
  url: string;
  /** The node itself. */
  node: SvcNode;
  /** Stops accepting, lets in-flight requests finish, then releases the node. */
  shutdown(): Promise<void>;
}

/**
 * Builds a node and serves it at `options.host`:`options.port`.
 *
 * @example
 * ```ts ignore
 * const serving = await serveNode({ store: "svc-data", host: "127.0.0.1", port: 0, token: "s3cret" });
 * await fetch(`${serving.url}/healthz`);
 * await serving.shutdown();
 * ```
 */
export async function serveNode(options: ServeNodeOptions): Promise<ServingNode> {
  const node = await createNode(options);
  let server;
  try {
    server = await serve(node.handler, { hostname: options.host, port: options.port });
  } catch (e) {
    await node.close();
    throw e;
  }
  const host = server.addr.hostname.includes(":") ? `[${server.addr.hostname}]` : server.addr.hostname;
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${host}:${server.addr.port}`,
    node,
    shutdown() {
      stopping ??= server.shutdown().then(() => node.close());
      return stopping;
    },
  };
}
