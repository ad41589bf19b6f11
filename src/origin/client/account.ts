/**
 * The account calls (origin-wire 3.9, 3.10): registration by a one-time claim
 * code from the operator, the claim's status, quota, earnings and listings.
 * `client.account` is made of these over the client's {@linkcode CallContext}.
 *
 * @module
 */
import type { ClaimAnswer, ClaimOptions, ClaimStatus, Earnings, Listings, ListingsQuery, Quota } from "../wire/mod.ts";
import type { CallContext } from "@svc/cli/client";
import { AuthError, SvcError } from "@svc/cli/client";
import { callJson } from "@svc/cli/client";
import { queryString } from "./query_string.ts";

/** The account calls of one client (`client.account`). */
export interface AccountCalls {
  /**
   * Claims an agent with a one-time claim code from its operator
   * (`POST /agents/claim`; no key needed, never retried: the code works
   * once). The answer's `apiKey` is shown only here and works once the
   * operator approves. A wrong code is a `ValidationError` (400), a used one
   * a `ConflictError` (409); an expired (410) or locked (423) code a plain
   * `SvcError`.
   */
  claim(code: string, options?: ClaimOptions): Promise<ClaimAnswer>;
  /**
   * How the claim of `apiKey` (default: the client's key) stands:
   * `GET /agents/claim/status` with that key as the bearer. Without any key
   * an `AuthError` is raised before sending. Ask at most once a minute.
   */
  claimStatus(apiKey?: string): Promise<ClaimStatus>;
  /**
   * The old registration route (`POST /agents`), which the origin answers
   * 410: an `SvcError` saying that agents register with a one-time claim
   * code from their operator.
   */
  register(): Promise<never>;
  /** Storage, monthly egress and credits (`GET /quota`; needs a key). */
  quota(): Promise<Quota>;
  /** The operator's earnings (`GET /earnings`; an agent key or an OAuth token as the key). */
  earnings(): Promise<Earnings>;
  /** The operator's units and datasets for sale (`GET /listings`; needs a key). */
  listings(query?: ListingsQuery): Promise<Listings>;
}

/** What `register()` says: the claim flow is the only way in. */
export const REGISTER_GONE = "agents no longer register with POST /agents: an agent registers with a one-time " +
  "claim code from its operator (svc claim CODE, or client.account.claim(code))";

/**
 * The account calls over `context`.
 */
export function accountCalls(context: CallContext): AccountCalls {
  const endpoint = context.endpoint;
  const get = async <T>(call: string, path: string, route: string): Promise<T> => {
    await context.needKey(call);
    return (await callJson(endpoint, "GET", path, null, {}, { route })).body as T;
  };
  return {
    async claim(code, options = {}) {
      const body = JSON.stringify({ code, name: options.name, description: options.description });
      return (await callJson(endpoint, "POST", "/agents/claim", body, {}, { route: "POST /agents/claim" }))
        .body as ClaimAnswer;
    },
    async claimStatus(apiKey) {
      const key = apiKey || endpoint.apiKey;
      if (!key) {
        throw new AuthError(
          "claimStatus needs the key that claim answered: pass it, or set SVC_API_KEY",
          null,
          "key_required",
        );
      }
      const headers = { authorization: `Bearer ${key}` };
      return (await callJson(endpoint, "GET", "/agents/claim/status", null, headers, {
        route: "GET /agents/claim/status",
      })).body as ClaimStatus;
    },
    async register() {
      try {
        await callJson(endpoint, "POST", "/agents", "{}", {}, { route: "POST /agents" });
      } catch (e) {
        if (e instanceof SvcError && e.status === 410) {
          const gone = new SvcError(REGISTER_GONE, 410, e.code ?? "gone", e.body);
          gone.asked = e.asked;
          throw gone;
        }
        throw e;
      }
      throw new SvcError(REGISTER_GONE, null, "gone");
    },
    quota: () => get("quota", "/quota", "GET /quota"),
    earnings: () => get("earnings", "/earnings", "GET /earnings"),
    listings: (query = {}) => get("listings", `/listings${queryString({ ...query })}`, "GET /listings"),
  };
}
