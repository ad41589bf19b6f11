/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless, answering JSON. A fresh
 * server and transport serve each request; the body was read (and capped)
 * by the node first, and the node's guards (Host, cross-site, token) have
 * already run. Other methods answer 405 (`allow: POST`) in the router.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { mcpServer } from "../../mcp/tools.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../guards/body.ts";

/** `POST /mcp`. */
export async function postMcp(ctx: NodeContext, req: Request): Promise<Response> {
  const parsedBody = await readJsonBody(req);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = mcpServer(ctx, new URL(req.url).origin);
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(req, { parsedBody });
    const headers = new Headers(res.headers);
    headers.set("x-svc-node", "1");
    headers.set("cache-control", "no-store");
    return new Response(await res.arrayBuffer(), { status: res.status, headers });
  } finally {
    await server.close();
  }
}
