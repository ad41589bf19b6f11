/**
 * MCP at `/mcp`: the node's tools over Streamable HTTP (stateless, JSON
 * answers), each calling the same service its HTTP route calls. The SDK and
 * the tools load with the first request (see `route.ts`).
 *
 * @module
 */
export { type McpEndpoint, mcpEndpoint } from "./route.ts";
