/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless, answering JSON. The
 * node's guards (Host, cross-site, token, JSON content type) have already
 * run; here the body is read (capped at 1 MiB) and checked as the reference
 * node checks it (`Accept`, `-32700`, `-32600`, protocol versions, `-32602`
 * for wrong params: see `src/mcp/jsonrpc.ts`); a plain call of a read tool
 * is answered straight from its route (`src/mcp/fast_call.ts`), anything
 * else by a fresh transport on a server with the tools already registered
 * (kept idle between requests). Other methods answer 405 (`allow: POST`) in the router.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { acceptsJson, checkBody, guardParams, PROTOCOL_VERSIONS, RPC, rpcErrorResponse } from "./jsonrpc.ts";
import { fastToolCall, type ReadToolTable } from "./fast_call.ts";
import { mcpServer } from "./server.ts";
import type { NodeState } from "../service/mod.ts";
import { publicOrigin, readJsonBody } from "../http/mod.ts";

import { NodeError } from "../errors/mod.ts";

/** Idle servers kept per public origin, reused so a request does not pay for building the tools. */
const KEEP = 4;

/** What the SDK transport demands to see; the node answers JSON whatever the client accepted. */
const TRANSPORT_ACCEPT = "application/json, text/event-stream";

/** `res` with the node's headers; a 202 (a notification) has no body. */
async function finish(res: Response): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.set("x-svc-node", "1");
  headers.set("cache-control", "no-store");
  const body = res.status === 202 ? null : await res.arrayBuffer();
  if (body === null) await res.body?.cancel();
  return new Response(body, { status: res.status, headers });
}

async function readBody(req: Request): Promise<{ body: unknown } | Response> {
  try {
    return { body: await readJsonBody(req) };
  } catch (e) {
    if (e instanceof NodeError && e.status === 400) {
      return rpcErrorResponse(400, RPC.parseError, "Parse error: the body is not JSON");
    }
    throw e;
  }
}

async function serve(
  ctx: NodeState,
  idle: Map<string, Server[]>,
  req: Request,
  body: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const base = publicOrigin(req);
  const free = idle.get(base) ?? [];
  idle.set(base, free);
  const server = free.pop() ?? mcpServer(ctx, base);
  await server.connect(transport);
  guardParams(transport);
  try {
    const headers = new Headers(req.headers);
    headers.set("accept", TRANSPORT_ACCEPT);
    const res = await transport.handleRequest(new Request(req.url, { method: "POST", headers }), {
      parsedBody: body,
    });
    return await finish(res);
  } finally {
    await server.close();
    if (free.length < KEEP) free.push(server);
  }
}

/** What a node's MCP endpoint keeps between requests: idle servers per public origin, and its read tools. */
export interface McpKept {
  /** Idle servers by public origin. */
  idle: Map<string, Server[]>;
  /** The read tools a plain call is answered from. */
  readTools: ReadToolTable;
}

/**
 * What an endpoint keeps, empty.
 *
 * @example
 * ```ts
 * import { mcpKept } from "./_post.ts";
 * mcpKept().idle.size; // 0
 * ```
 */
export function mcpKept(): McpKept {
  return { idle: new Map(), readTools: new Map() };
}

/**
 * Answers one `POST /mcp` (see the module's comment).
 *
 * @example
 * ```ts ignore
 * import { mcpKept, postMcp } from "./_post.ts";
 * const res = await postMcp(ctx, mcpKept(), request, {});
 * ```
 */
export async function postMcp(
  ctx: NodeState,
  kept: McpKept,
  req: Request,
  options: { fast?: boolean },
): Promise<Response> {
  if (!acceptsJson(req.headers.get("accept"))) {
    const message = "Not Acceptable: this node answers application/json (send Accept: application/json)";
    return await finish(rpcErrorResponse(406, RPC.server, message));
  }
  const read = await readBody(req);
  if (read instanceof Response) return await finish(read);
  const protocol = req.headers.get("mcp-protocol-version");
  // A plain call of a read tool is a well-formed JSON-RPC request: checkBody would pass it.
  if (options.fast !== false && (protocol === null || PROTOCOL_VERSIONS.includes(protocol))) {
    const fast = await fastToolCall(ctx, kept.readTools, publicOrigin(req), read.body);
    if (fast) return fast;
  }
  const refusal = checkBody(read.body, protocol);
  if (refusal) return await finish(refusal);
  return await serve(ctx, kept.idle, req, read.body);
}
