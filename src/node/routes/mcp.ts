/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless, answering JSON. A fresh
 * transport serves each request, on a server with the tools already
 * registered (kept idle between requests); the body was read (and capped)
 * by the node first, and the node's guards (Host, cross-site, token) have
 * already run. Other methods answer 405 (`allow: POST`) in the router.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { mcpServer } from "../../mcp/tools.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../guards/body.ts";
import { publicOrigin } from "../public_url.ts";

/** Idle servers by node and address, reused so a request does not pay for registering the tools. */
const idle = new WeakMap<NodeContext, Map<string, McpServer[]>>();
const KEEP = 4;

/** `POST /mcp`. */
export async function postMcp(ctx: NodeContext, req: Request): Promise<Response> {
  const parsedBody = await readJsonBody(req);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const base = publicOrigin(req);
  const byBase = idle.get(ctx) ?? new Map<string, McpServer[]>();
  idle.set(ctx, byBase);
  const free = byBase.get(base) ?? [];
  byBase.set(base, free);
  const server = free.pop() ?? mcpServer(ctx, base);
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(req, { parsedBody });
    const headers = new Headers(res.headers);
    headers.set("x-svc-node", "1");
    headers.set("cache-control", "no-store");
    return new Response(await res.arrayBuffer(), { status: res.status, headers });
  } finally {
    await server.close();
    if (free.length < KEEP) free.push(server);
  }
}
