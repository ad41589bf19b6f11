/**
 * What every HTTP handler needs: the node's state (see `src/service/`) and
 * where the node listens, for the Host guard.
 *
 * @module
 */
import type { NodeState } from "../service/mod.ts";
import type { NodeAddress } from "./guards/host.ts";
import type { McpEndpoint } from "../mcp/mod.ts";
import type { FooterReader, PageKey, RecipientBook } from "../sharing/mod.ts";

/** What the Delta Sharing routes keep: the share's name, footers read, the recipients' tokens. */
export interface SharingSetup {
  /** The share's name (`--share-name`, default `svc`). */
  share: string;
  /** Statistics and columns read from Parquet footers, kept. */
  footers: FooterReader;
  /** The recipients' tokens, reread when their file changes. */
  recipients: RecipientBook;
  /** The key page tokens are signed with (from the node token, else random per start). */
  pageKey: PageKey;
}

export type { FollowView } from "../service/mod.ts";

/** The node's state and the HTTP layer's own facts, passed to every handler. */
export interface NodeContext extends NodeState {
  /** Where the node listens, for the Host guard. */
  readonly address: Readonly<NodeAddress>;
  /** Whether `address.host` is loopback (the node's pages are then trusted); it never changes. */
  loopbackNode: boolean;
  /** `POST /mcp`, with the servers and tools it keeps between requests. */
  mcp: McpEndpoint;
  /** Delta Sharing under `/delta-sharing`. */
  sharing: SharingSetup;
}
