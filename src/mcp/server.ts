/**
 * The node's MCP server, on the SDK's low-level `Server` rather than
 * `McpServer`, so that it answers as the reference node does: an unknown tool
 * or arguments its schema refuses are a `-32602` error with a short message
 * (McpServer makes them tool results), the `tools` capability carries no
 * `listChanged` (a stateless server never sends it), `initialize` negotiates
 * among the node's own protocol versions and carries `instructions`. A
 * node's answer is the HTTP route's JSON, as text and as
 * `structuredContent`; a route's error is a tool error reading `<status>:
 * <message>`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/zod-json-schema-compat"
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { failureOf, type NodeState } from "../service/mod.ts";
import { VERSION } from "../version.ts";
import { mcpInstructions } from "./instructions.ts";
import { describeIssues, type ZodIssueLike } from "./issues.ts";
import { negotiateVersion, RPC, RpcError } from "./jsonrpc.ts";
import { type NodeTool, nodeTools } from "./tools.ts";

/** The server's name in `initialize`. */
export const SERVER_NAME = "svc-node";

async function answer(ctx: NodeState, tool: NodeTool, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    const text = await tool.run(args);
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  } catch (e) {
    // The same status and message HTTP gives (507 for a full disk, 500 without detail), never a path.
    const { status, message } = failureOf(e, `MCP ${tool.name}`, ctx.log);
    return { isError: true, content: [{ type: "text", text: `${status}: ${message}` }] };
  }
}

function listing(tool: NodeTool): Tool {
  const inputSchema = toJsonSchemaCompat(tool.input, { strictUnions: true, pipeStrategy: "input" }) as Tool[
    "inputSchema"
  ];
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    annotations: tool.annotations,
  };
}

function unknownTool(name: string, all: NodeTool[], listed: NodeTool[]): RpcError {
  const shown = JSON.stringify(name.slice(0, 100));
  if (all.some((t) => t.name === name)) {
    return new RpcError(RPC.invalidParams, `unknown tool ${shown}: this node is read-only and has no write tools`);
  }
  return new RpcError(RPC.invalidParams, `unknown tool ${shown}; tools: ${listed.map((t) => t.name).join(", ")}`);
}

/**
 * An MCP server with the node's tools; `base` is the node's address as the
 * client reached it (for part URLs). On a read-only node the write side is
 * left out. Connect it to one transport per request.
 */
export function mcpServer(ctx: NodeState, base: string): Server {
  const all = nodeTools(ctx, base);
  const listed = ctx.readOnly ? all.filter((t) => !t.writeSide) : all;
  const byName = new Map(listed.map((t) => [t.name, t]));
  const tools = listed.map(listing);
  const instructions = mcpInstructions(ctx);
  const info = { name: SERVER_NAME, title: "svc dataset node", version: VERSION };
  // `tools` without `listChanged`: a stateless server has no channel to send that notification on.
  const capabilities = { tools: {} };
  const server = new Server(info, { capabilities, instructions });

  server.setRequestHandler(InitializeRequestSchema, (request) => ({
    protocolVersion: negotiateVersion(request.params.protocolVersion),
    capabilities,
    serverInfo: info,
    instructions,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = byName.get(name);
    if (!tool) throw unknownTool(name, all, listed);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues as ZodIssueLike[];
      const takes = issues.some((i) => i.code === "unrecognized_keys" && i.path.length === 0)
        ? ` (${name} takes ${Object.keys(tool.input.shape).join(", ")})`
        : "";
      throw new RpcError(RPC.invalidParams, `${name}: ${describeIssues(issues, args, "argument")}${takes}`);
    }
    return answer(ctx, tool, parsed.data);
  });
  return server;
}
