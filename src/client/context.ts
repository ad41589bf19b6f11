/**
 * What a client's call areas (contributions here; knowledge units, account,
 * community and payments in `@svc/origin`) share with the client that made
 * them: where and as whom to call, the key check before sending and the
 * node probe. An area is a plain object of functions over one context.
 *
 * @module
 */
import type { Endpoint } from "./http.ts";

/** The calls of one client, as its areas see them. */
export interface CallContext {
  /** The origin (or node): base URL, key, timeout, retries, warnings. */
  readonly endpoint: Endpoint;
  /** Whether calls that need an agent key refuse to go without one. */
  readonly requireKey: boolean;
  /** The environment the client was configured from (`SVC_WALLET_KEY`, `SVC_MAX_PRICE`, ...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Refuses a call that needs an agent key when there is none (an
   * `AuthError` raised before sending), unless the base URL is a node
   * without a token (asked once per client).
   */
  needKey(call: string): Promise<void>;
  /** Whether the base URL is a node (`GET /healthz` says `node: true`), asked once per client. */
  isNode(): Promise<boolean>;
}
