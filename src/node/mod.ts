/**
 * The node: routing, guards, handlers and health.
 *
 * @module
 */
export type { FollowView, NodeContext } from "./context.ts";
export { type ConnInfo, createHandler, type Handler, type LogSink } from "./handler.ts";
export { hostAllowed, isLoopback, type NodeAddress } from "./guards/host.ts";
export { createNode, type NodeOptions, type SvcNode } from "./node.ts";
export { PART_URL_LIFETIME_S, partSignature } from "./part_url.ts";
export { errorResponse } from "./response.ts";
