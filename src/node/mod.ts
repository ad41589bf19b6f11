/**
 * The node: routing, guards, handlers and health.
 *
 * @module
 */
export type { FollowView, NodeContext } from "./context.ts";
export { type ConnInfo, createHandler, type Handler } from "./handler.ts";
export type { LogSink } from "../service/mod.ts";
export { hostAllowed, type NodeAddress } from "./guards/host.ts";
export { createNode, type NodeOptions, type SvcNode } from "./node.ts";
export { serveNode, type ServeNodeOptions, type ServingNode } from "./serve.ts";
export { errorResponse } from "./response.ts";
