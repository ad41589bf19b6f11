/**
 * What every HTTP handler needs: the node's state (see `src/service/`) and
 * where the node listens, for the Host guard.
 *
 * @module
 */
import type { NodeState } from "../service/mod.ts";
import type { NodeAddress } from "./guards/host.ts";
import type { McpEndpoint } from "../mcp/mod.ts";

export type { FollowView } from "../service/mod.ts";

/** The node's state and the HTTP layer's own facts, passed to every handler. */
export interface NodeContext extends NodeState {
  /** Where the node listens, for the Host guard (the port is set once bound). */
  address: NodeAddress;
  /** Whether `address.host` is loopback (the node's pages are then trusted); it never changes. */
  loopbackNode: boolean;
  /** `POST /mcp`, with the servers and tools it keeps between requests. */
  mcp: McpEndpoint;
}
