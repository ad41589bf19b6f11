/**
 * The payments calls that need no wallet (`client.payments`): the credits
 * view and the credits purchases on the origin (agent key), and the pay
 * service's statements, purchase history and disputes as plain HTTP, with
 * the signatures given by the caller. The pay service never receives the
 * agent key: its calls go with no key and no user agent, redirects followed
 * (origin-wire 1.2), GETs retried. What signs (a wallet, x402) is
 * `@svc/origin/pay`.
 *
 * @module
 */
import type {
  CreditsView,
  DatasetCreditPurchase,
  Dispute,
  DisputeOpened,
  PurchasePage,
  StatementAnswer,
  UnitCreditPurchase,
} from "../wire/mod.ts";
import type { OriginContext } from "./context.ts";
import { callJson, type Endpoint } from "@svc/cli/client";

/** A wallet's proof for `GET /purchases`: the address, the statement's time and the signature. */
export interface WalletProof {
  /** The wallet address, lowercase. */
  wallet: string;
  /** The statement's time, unix seconds. */
  time: number;
  /** The EIP-191 signature of the statement, 0x hex. */
  signature: string;
}

/** The payments calls of one client. */
export interface PaymentCalls {
  /**
   * The environment the client was configured from: where `@svc/origin/pay`
   * reads `SVC_WALLET_KEY`, `SVC_MAX_PRICE` and `SVC_X402_NETWORKS` when its
   * options do not name them.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `GET /credits` (auth): balance, grants, prices, the top-up URL and the latest ledger entries. */
  credits(): Promise<CreditsView>;
  /** `POST /knowledge/{id}/buy` (auth): buys a unit's listing with credits, once for the whole operator. */
  buyWithCredits(unitId: string): Promise<UnitCreditPurchase>;
  /** `POST /projects/{slug}/buy` (auth, `projects.buy`): buys a dataset version (default the newest) with credits. */
  buyDatasetWithCredits(slug: string, version?: number): Promise<DatasetCreditPurchase>;
  /** Pay service `GET /purchases/statement?wallet=`: the text to sign for the purchase history. */
  purchaseStatement(wallet: string): Promise<StatementAnswer>;
  /** Pay service `GET /purchases` with the wallet's proof in `x-svc-wallet`, `x-svc-time`, `x-svc-signature`. */
  purchases(proof: WalletProof, page?: { limit?: number; before?: string }): Promise<PurchasePage>;
  /** Pay service `GET /disputes/statement?transaction=&wallet=`: the text to sign to open a dispute. */
  disputeStatement(transaction: string, wallet: string): Promise<StatementAnswer>;
  /** Pay service `POST /disputes` (never retried). */
  openDispute(
    body: { transaction: string; reason: string; wallet: string; time: number; signature: string },
  ): Promise<DisputeOpened>;
  /** Pay service `GET /disputes/{id}`. */
  dispute(id: string): Promise<Dispute>;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/**
 * The payments area over `context`.
 */
export function paymentCalls(context: OriginContext): PaymentCalls {
  const origin = context.endpoint;
  const pay: Endpoint = { ...context.endpoint, baseUrl: context.payUrl, apiKey: null, bare: true };
  const get = async <T>(endpoint: Endpoint, path: string, route: string, headers: Record<string, string> = {}) =>
    (await callJson(endpoint, "GET", path, null, headers, { route })).body as T;
  const post = async <T>(endpoint: Endpoint, path: string, body: unknown, route: string) =>
    (await callJson(endpoint, "POST", path, JSON.stringify(body), {}, { route, retry: false })).body as T;
  return {
    env: context.env,
    async credits() {
      await context.needKey("credits");
      return await get(origin, "/credits", "GET /credits");
    },
    async buyWithCredits(unitId) {
      await context.needKey("buy_with_credits");
      return await post(origin, `/knowledge/${encodeURIComponent(unitId)}/buy`, {}, "POST /knowledge/{id}/buy");
    },
    async buyDatasetWithCredits(slug, version) {
      await context.needKey("projects.buy");
      const body = version === undefined ? {} : { version };
      return await post(origin, `/projects/${encodeURIComponent(slug)}/buy`, body, "POST /projects/{slug}/buy");
    },
    purchaseStatement(wallet) {
      return get(pay, `/purchases/statement${query({ wallet })}`, "GET /purchases/statement");
    },
    purchases(proof, page = {}) {
      return get(pay, `/purchases${query({ limit: page.limit ?? 50, before: page.before })}`, "GET /purchases", {
        "x-svc-wallet": proof.wallet,
        "x-svc-time": String(proof.time),
        "x-svc-signature": proof.signature,
      });
    },
    disputeStatement(transaction, wallet) {
      return get(pay, `/disputes/statement${query({ transaction, wallet })}`, "GET /disputes/statement");
    },
    openDispute(body) {
      return post(pay, "/disputes", body, "POST /disputes");
    },
    dispute(id) {
      return get(pay, `/disputes/${encodeURIComponent(id)}`, "GET /disputes/{id}");
    },
  };
}
