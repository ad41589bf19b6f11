/**
 * MCP at `/mcp`: the node's tools over Streamable HTTP (stateless, JSON
 * answers), each calling the same service its HTTP route calls.
 *
 * @module
 */
export { mcpInstructions } from "./instructions.ts";
export { PROTOCOL_VERSIONS, RPC } from "./jsonrpc.ts";
export { type McpEndpoint, mcpEndpoint } from "./route.ts";
export { mcpServer, SERVER_NAME } from "./server.ts";
export { MCP_PAGE_DEFAULT, MCP_PAGE_MAX, type NodeTool, nodeTools } from "./tools.ts";
