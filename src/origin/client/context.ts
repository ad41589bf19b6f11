/**
 * What the origin's call areas share: a client's call context, and the pay
 * service's base URL (which never receives the agent key).
 *
 * @module
 */
import type { CallContext } from "@svc/cli/client";

/** The calls of one origin client, as its areas see them. */
export interface OriginContext extends CallContext {
  /** The pay service's base URL. */
  readonly payUrl: string;
}
