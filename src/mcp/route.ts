/**
 * `POST /mcp` as the node holds it: the MCP SDK, zod and the tools load on
 * the first request (`_post.ts`), not with the node, whose start-up they
 * would otherwise lengthen by a third.
 *
 * @module
 */
import type { NodeState } from "../service/mod.ts";
import type { McpKept } from "./_post.ts";

/** A node's `POST /mcp`, holding what it keeps between requests (idle servers, read tools). */
export interface McpEndpoint {
  /** Answers one `POST /mcp`; `fast: false` sends a read tool's call through the SDK too (tests compare the two). */
  post(req: Request, options?: { fast?: boolean }): Promise<Response>;
}

/**
 * The MCP endpoint of the node whose state is `ctx`, built once with the
 * node; what it answers with is loaded by its first request.
 *
 * @example
 * ```ts ignore
 * import { mcpEndpoint } from "./route.ts";
 * const res = await mcpEndpoint(ctx).post(request);
 * ```
 */
export function mcpEndpoint(ctx: NodeState): McpEndpoint {
  let loaded: Promise<{ post: typeof import("./_post.ts").postMcp; kept: McpKept }> | null = null;
  return {
    async post(req, options = {}) {
      loaded ??= import("./_post.ts").then((m) => ({ post: m.postMcp, kept: m.mcpKept() }));
      const { post, kept } = await loaded;
      return await post(ctx, kept, req, options);
    },
  };
}
