/**
 * Serving a node: build it over a store (`createNode`) and serve its
 * handler with the node's HTTP/1.1 server on the runtime's listener.
 *
 * @module
 */
import type { HttpLimits } from "../http/mod.ts";
import { serve } from "../runtime/mod.ts";
import { createNode, type NodeOptions, type SvcNode } from "./node.ts";
import { errorResponse } from "./response.ts";

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
 * ```ts
 * import { serveNode } from "./serve.ts";
 *
 * const serving = await serveNode({ store: await Deno.makeTempDir(), host: "127.0.0.1", port: 0, token: "s3cret" });
 * const health = await fetch(`${serving.url}/healthz`);
 * console.log(health.status, (await health.json()).status); // 200 "ok"
 * await serving.shutdown();
 * ```
 */
export async function serveNode(options: ServeNodeOptions): Promise<ServingNode> {
  // The node is built once it knows its port (port 0 picks one at bind), so its address never changes after; a
  // request that comes in meanwhile waits for it, as it would have waited for the port to open.
  let settle!: { resolve(node: SvcNode): void; reject(e: unknown): void };
  const built = new Promise<SvcNode>((resolve, reject) => settle = { resolve, reject });
  built.catch(() => {});
  const server = await serve((req, info) => built.then((node) => node.handler(req, info)), {
    hostname: options.host,
    port: options.port,
    limits: options.limits,
    errorAnswer: (status, message) => errorResponse(status, message),
    quick: (head, info) => built.then((node) => node.quick(head, info)),
    log: (line) => console.error(line),
  });
  let node: SvcNode;
  try {
    node = await createNode({ ...options, port: server.addr.port });
  } catch (e) {
    settle.reject(e);
    await server.shutdown();
    throw e;
  }
  settle.resolve(node);
  const host = server.addr.hostname.includes(":") ? `[${server.addr.hostname}]` : server.addr.hostname;
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${host}:${server.addr.port}`,
    node,
    connections: () => server.connections(),
    shutdown() {
      node.drain();
      stopping ??= server.shutdown().then(() => node.close());
      return stopping;
    },
  };
}
