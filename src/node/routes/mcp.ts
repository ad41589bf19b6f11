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
import { acceptsJson, checkBody, guardParams, PROTOCOL_VERSIONS, RPC, rpcErrorResponse } from "../../mcp/jsonrpc.ts";
import { fastToolCall } from "../../mcp/fast_call.ts";
import { mcpServer } from "../../mcp/server.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../guards/body.ts";
import { publicOrigin } from "../public_url.ts";
import { HttpError } from "../response.ts";

/** Idle servers by node and address, reused so a request does not pay for building the tools. */
const idle = new WeakMap<NodeContext, Map<string, Server[]>>();
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
    if (e instanceof HttpError && e.status === 400) {
      return rpcErrorResponse(400, RPC.parseError, "Parse error: the body is not JSON");
    }
    throw e;
  }
}

async function serve(ctx: NodeContext, req: Request, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const base = publicOrigin(req);
  const byBase = idle.get(ctx) ?? new Map<string, Server[]>();
  idle.set(ctx, byBase);
  const free = byBase.get(base) ?? [];
  byBase.set(base, free);
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

/**
 * `POST /mcp`.
 *
 * @example
 * ```ts ignore
 * const res = await postMcp(ctx, request); // a JSON-RPC answer, or 202 for a notification
 * // `fast: false` sends a read tool's call through the SDK too (tests compare the two)
 * ```
 */
export async function postMcp(
  ctx: NodeContext,
  req: Request,
  options: { fast?: boolean } = {},
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
    const fast = await fastToolCall(ctx, publicOrigin(req), read.body);
    if (fast) return fast;
  }
  const refusal = checkBody(read.body, protocol);
  if (refusal) return await finish(refusal);
  return await serve(ctx, req, read.body);
}
