/**
 * JSON-RPC framing of `POST /mcp` where the node answers as the reference
 * node does rather than as the SDK transport would: which `Accept` headers
 * get JSON, the protocol versions, `-32700` for a body that is not JSON,
 * `-32600` for what is not a JSON-RPC message (or a batch where the
 * negotiated protocol has none), and `-32602` with a short message, never a
 * dump of schema issues, for a request whose params are wrong.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeIssues, type ZodIssueLike } from "./issues.ts";

/** The protocol versions the node speaks, newest first (as the reference node 0.28). */
export const PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** JSON-RPC error codes the node answers with. */
export const RPC = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602, server: -32000 } as const;

/** Versions without JSON-RPC batches (they were dropped in 2025-06-18). */
const NO_BATCHES = new Set(["2025-11-25", "2025-06-18"]);

/**
 * An error a request handler throws to answer with `code` and `message` as
 * they are (the SDK's `McpError` would prefix the message with its code).
 *
 * @example
 * ```ts
 * import { RPC, RpcError } from "./jsonrpc.ts";
 * new RpcError(RPC.invalidParams, "missing argument slug").code; // -32602
 * ```
 */
export class RpcError extends Error {
  /** JSON-RPC error code. */
  readonly code: number;

  /** @param code JSON-RPC error code @param message for people */
  constructor(code: number, message: string) {
    super(message);
    this.name = "RpcError";
    this.code = code;
  }
}

/**
 * The version answered to a client that asks for `requested`: the same when
 * the node speaks it, else the newest the node speaks.
 *
 * @example
 * ```ts
 * import { negotiateVersion } from "./jsonrpc.ts";
 * negotiateVersion("2025-03-26"); // "2025-03-26"
 * negotiateVersion("2024-10-07"); // "2025-11-25"
 * ```
 */
export function negotiateVersion(requested: string): string {
  return PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0];
}

/**
 * Whether an `Accept` header lets the node answer JSON: absent or empty,
 * or naming `application/json`, `application/*` or the any-type range, with
 * a quality above 0. (The SDK transport also demands `text/event-stream`; the node
 * never streams, so it does not.)
 *
 * @example
 * ```ts
 * import { acceptsJson } from "./jsonrpc.ts";
 * acceptsJson("application/json"); // true
 * acceptsJson("text/html"); // false
 * ```
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === "application/json" || type === "application/*" || type === "*/*";
  });
}

/**
 * A JSON-RPC error answer, in the SDK transport's form (`content-type:
 * application/json`).
 *
 * @example
 * ```ts
 * import { RPC, rpcErrorResponse } from "./jsonrpc.ts";
 * rpcErrorResponse(400, RPC.parseError, "Parse error: the body is not JSON").status; // 400
 * ```
 */
export function rpcErrorResponse(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

const INVALID = "Invalid Request: a JSON-RPC 2.0 message is an object with " +
  '"jsonrpc": "2.0" and a "method" (and an "id", a string or an integer, for a request)';

/** For a message that is JSON-RPC but for `params` that are not an object, what to say; else null. */
function paramsNotObject(message: unknown): string | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
  const { jsonrpc, method, params } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0" || typeof method !== "string" || !("params" in message)) return null;
  if (params !== null && typeof params === "object" && !Array.isArray(params)) return null;
  return `${method.slice(0, 100)}: params must be an object`;
}

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * The refusal of a parsed body before the transport sees it, or null when it
 * may go on: `-32602` for a request whose `params` are not an object (as the
 * reference node answers), `-32600` for a message that is not JSON-RPC, an empty batch, a
 * batch under a protocol version without batches or one holding
 * `initialize`; `400 -32000` for a
 * protocol-version header the node does not speak (`initialize` negotiates
 * instead).
 *
 * @example
 * ```ts
 * import { checkBody } from "./jsonrpc.ts";
 * checkBody({ jsonrpc: "2.0", id: 1, method: "ping" }, null); // null
 * checkBody({ hello: "world" }, null)?.status; // 400
 * ```
 */
export function checkBody(body: unknown, protocolHeader: string | null): Response | null {
  const messages = Array.isArray(body) ? body : [body];
  if (Array.isArray(body)) {
    if (body.length === 0) return rpcErrorResponse(400, RPC.invalidRequest, "Invalid Request: an empty batch");
    if (protocolHeader !== null && NO_BATCHES.has(protocolHeader)) {
      const message = `Invalid Request: protocol ${protocolHeader} has no batches: send one message per request`;
      return rpcErrorResponse(400, RPC.invalidRequest, message);
    }
  }
  for (const message of messages) {
    const params = paramsNotObject(message);
    if (params !== null && !Array.isArray(body)) return rpcErrorResponse(200, RPC.invalidParams, params, idOf(message));
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      return rpcErrorResponse(400, RPC.invalidRequest, INVALID, Array.isArray(body) ? null : idOf(message));
    }
  }
  const initializing = messages.some((m) => (m as { method?: unknown }).method === "initialize");
  if (initializing && Array.isArray(body)) {
    return rpcErrorResponse(400, RPC.invalidRequest, "Invalid Request: initialize must be sent alone, not in a batch");
  }
  if (!initializing && protocolHeader !== null && !PROTOCOL_VERSIONS.includes(protocolHeader)) {
    const message = `Bad Request: Unsupported protocol version: ${protocolHeader} ` +
      `(supported versions: ${PROTOCOL_VERSIONS.join(", ")})`;
    return rpcErrorResponse(400, RPC.server, message);
  }
  return null;
}

/** The SDK's schema of each request the node serves, to check params against. */
const REQUESTS: Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } }> = {
  "initialize": InitializeRequestSchema,
  "ping": PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/**
 * The `-32602` answer to a request whose params its method's schema
 * refuses, or null. (The SDK would answer `-32603` with a dump of the
 * schema's issues.)
 *
 * @example
 * ```ts
 * import { paramsRefusal } from "./jsonrpc.ts";
 * paramsRefusal({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} })?.error.message;
 * // "tools/call: missing params.name"
 * ```
 */
export function paramsRefusal(
  message: JSONRPCMessage,
): { jsonrpc: "2.0"; id: string | number; error: { code: number; message: string } } | null {
  if (!("method" in message) || !("id" in message)) return null;
  const check = REQUESTS[message.method]?.safeParse(message);
  if (!check || check.success) return null;
  const issues = (check.error?.issues ?? []) as ZodIssueLike[];
  const text = `${message.method}: ${describeIssues(issues, message, "")}`;
  return { jsonrpc: "2.0", id: message.id, error: { code: RPC.invalidParams, message: text } };
}

/**
 * Puts {@linkcode paramsRefusal} between a connected transport and its
 * server: a request with wrong params is answered on the transport and never
 * reaches the server. Call after `server.connect(transport)`.
 */
export function guardParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("guardParams: the transport is not connected");
  transport.onmessage = (message, extra) => {
    const refusal = paramsRefusal(message);
    if (refusal) void transport.send(refusal);
    else deliver(message, extra);
  };
}
