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
import type { HttpLimits } from "./src/http/mod.ts";
import { createNode, errorResponse, type NodeOptions, type SvcNode } from "./src/node/mod.ts";
import { serve } from "./src/runtime/mod.ts";

export { createNode, type NodeOptions, type SvcNode } from "./src/node/mod.ts";
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

/** Options of {@linkcode serveNode}: the node's, plus the port and the connection limits. */
export interface ServeNodeOptions extends NodeOptions {
  /** Port to bind (0 picks a free one). */
  port: number;
  /** Connection cap and timeouts; missing ones take {@linkcode DEFAULT_LIMITS}. */
  limits?: Partial<HttpLimits>;
}

/** A node that is serving. */
export interface ServingNode {
  /** The node's base URL as bound, e.g. `http://127.0.0.1:8686`. */
  url: string;
  /** The node itself. */
  node: SvcNode;
  /** Connections open now. */
  connections(): number;
  /** Stops accepting, lets in-flight requests finish (within the grace period), then releases the node. */
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
    server = await serve(node.handler, {
      hostname: options.host,
      port: options.port,
      limits: options.limits,
      errorAnswer: (status, message) => errorResponse(status, message),
      quick: node.quick,
      log: (line) => console.error(line),
    });
  } catch (e) {
    await node.close();
    throw e;
  }
  node.bound(server.addr.port);
  const host = server.addr.hostname.includes(":") ? `[${server.addr.hostname}]` : server.addr.hostname;
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${host}:${server.addr.port}`,
    node,
    connections: () => server.connections(),
    shutdown() {
      stopping ??= server.shutdown().then(() => node.close());
      return stopping;
    },
  };
}
