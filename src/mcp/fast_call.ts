/**
 * A `tools/call` of a read tool answered without the SDK's server and
 * transport: the same JSON-RPC answer (the route's JSON as text and as
 * `structuredContent`, a route's error as a tool error), built straight from
 * the route's text. The route's JSON goes in as it is rather than parsed and
 * written again, which also keeps integers beyond 2^53 to the digit. Anything
 * else (another method, a write tool, arguments the schema refuses, an
 * unusual message) is left to the SDK.
 *
 * @module
 */
import type { NodeState } from "../service/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { type NodeTool, nodeTools } from "./tools.ts";

/** A node's read tools by public origin, built on first use (the tools name the origin in their links). */
export type ReadToolTable = Map<string, Map<string, NodeTool>>;

function readToolsOf(ctx: NodeState, table: ReadToolTable, base: string): Map<string, NodeTool> {
  let tools = table.get(base);
  if (!tools) {
    tools = new Map(
      nodeTools(ctx, base).filter((t) => t.annotations.readOnlyHint && !t.writeSide).map((t) => [t.name, t]),
    );
    table.set(base, tools);
  }
  return tools;
}

function rpcAnswer(id: string | number, inner: string): Response {
  return new Response(`{${inner},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`, {
    status: 200,
    headers: { "content-type": "application/json", "x-svc-node": "1", "cache-control": "no-store" },
  });
}

/**
 * The answer to `body` when it is a plain `tools/call` of one of the node's
 * read tools with arguments its schema takes, else null (the SDK answers).
 */
export async function fastToolCall(
  ctx: NodeState,
  table: ReadToolTable,
  base: string,
  body: unknown,
): Promise<Response | null> {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const { jsonrpc, id, method, params, ...rest } = body as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/call" || Object.keys(rest).length > 0) return null;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  if (!params || typeof params !== "object" || Array.isArray(params)) return null;
  const { name, arguments: args = {}, ...more } = params as Record<string, unknown>;
  if (typeof name !== "string" || Object.keys(more).length > 0) return null;
  const tool = readToolsOf(ctx, table, base).get(name);
  if (!tool || !args || typeof args !== "object" || Array.isArray(args)) return null;
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return null;
  let text: string;
  try {
    text = await tool.run(parsed.data);
  } catch (e) {
    // Anything but a route's refusal is the SDK's to answer (a read tool may run again).
    if (!(e instanceof NodeError)) return null;
    const said = JSON.stringify(`${e.status}: ${e.message}`);
    return rpcAnswer(id, `"result":{"isError":true,"content":[{"type":"text","text":${said}}]}`);
  }
  return rpcAnswer(
    id,
    `"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`,
  );
}
