/**
 * One x402 purchase (origin-wire 5.2): the checks before any request (a
 * wallet key, the allowed networks, the cap), `GET <pay><path>` with a 90 s
 * timeout and no retries, the 402's offers held to the policy before
 * anything is signed (none left: `PaymentRequiredError`, nothing signed),
 * an EIP-3009 `TransferWithAuthorization` signed as EIP-712 by the x402
 * project's own client (`@x402/fetch`, `@x402/evm`, loaded on first use)
 * and sent as `PAYMENT-SIGNATURE`, and the receipt of `PAYMENT-RESPONSE`.
 * A failure after signing is a plain `SvcError` naming the status.
 *
 * @module
 */
import type { OriginClient } from "../client/mod.ts";
import { PaymentRequiredError, readErrorAnswer, SvcError } from "@svc/cli/client";
import { parseExactJson } from "@svc/cli/wire";
import type { PaymentReceipt } from "../wire/mod.ts";
import { decodeHeaderJson, type PaymentRequired, type PaymentRequirements } from "./x402.ts";
import { capAtomic } from "./cap.ts";
import { allowedNetworks, USDC_NETWORKS } from "./networks.ts";
import { applyPolicy, type PayPolicy, readPaymentRequired } from "./policy.ts";
import { openWallet, type TypedData, walletKey } from "./wallet.ts";
import { loadPaymentModule } from "./packages.ts";
import type { X402Client, X402EvmModule, X402FetchModule } from "./_payment_shapes.ts";

/** How a purchase may be paid. */
export interface PayOptions {
  /** The wallet's private key (default `SVC_WALLET_KEY` of the client's environment). Never sent. */
  walletKey?: string;
  /** The most one purchase may cost, in USD (default `SVC_MAX_PRICE`, else 1.00). Equal is allowed. */
  maxPrice?: string | number;
  /** Allowed CAIP-2 networks, a list or a comma string (default `SVC_X402_NETWORKS`, else `eip155:84532`). */
  networks?: string | readonly string[];
  /** Milliseconds before the purchase is given up (default 90,000). */
  timeoutMs?: number;
  /** Called with the offer about to be paid, just before the wallet signs. */
  onPay?: (offer: PaymentRequirements) => void;
}

/** What a purchase answered: the body, the receipt, and the offer paid (null when nothing was paid). */
export interface Paid {
  /** The resource, parsed (integers beyond 2^53 as `bigint`). */
  body: unknown;
  /** The decoded `PAYMENT-RESPONSE`, or null when none came. */
  receipt: PaymentReceipt | null;
  /** The offer the wallet signed for, or null when the resource came without paying. */
  offer: PaymentRequirements | null;
}

/** The purchase's own timeout (origin-wire 1.1). */
export const PURCHASE_TIMEOUT_MS = 90_000;

/** Refuses, with a reason, typed data that is not a transfer of the offer chosen: the last gate before signing. */
function checkTyped(typed: TypedData, offer: PaymentRequirements | null, policy: PayPolicy): string | null {
  if (!offer) return "no offer was chosen";
  const table = USDC_NETWORKS[offer.network];
  const message = typed.message as Record<string, unknown>;
  if (typed.primaryType !== "TransferWithAuthorization") return `it asks to sign ${typed.primaryType}`;
  if (!table || Number(typed.domain.chainId) !== table.chainId) return "the domain's chain is not the offer's";
  if (String(typed.domain.verifyingContract).toLowerCase() !== table.usdc.toLowerCase()) {
    return "the domain's contract is not USDC";
  }
  const value = BigInt(message.value as bigint);
  if (value !== BigInt(offer.amount) || value > policy.cap) return "the value is not the offer's price";
  if (String(message.to).toLowerCase() !== offer.payTo.toLowerCase()) return "the payee is not the offer's";
  return null;
}

/** What one purchase learns as it goes: the offer chosen, whether the wallet signed, and why it stopped. */
interface Session {
  /** The allowed networks and the cap. */
  policy: PayPolicy;
  /** The pay service's base URL. */
  pay: string;
  /** The offer about to be paid, once the x402 client chose one. */
  chosen: PaymentRequirements | null;
  /** Whether the wallet signed. */
  signed: boolean;
  /** The first refusal raised inside the x402 client, which it may wrap in its own error. */
  stopped: SvcError | null;
}

function stop(session: Session, error: SvcError): never {
  session.stopped ??= error;
  throw error;
}

/** The x402 client of one purchase: it pays the first offer the policy keeps, signing only a transfer of it. */
async function payingClient(
  session: Session,
  key: Parameters<typeof openWallet>[0],
  options: PayOptions,
): Promise<{ payer: X402Client; wrap: X402FetchModule["wrapFetchWithPayment"] }> {
  const [{ wrapFetchWithPayment, x402Client }, { ExactEvmScheme }] = await Promise.all([
    loadPaymentModule<X402FetchModule>("@x402/fetch", ""),
    loadPaymentModule<X402EvmModule>("@x402/evm", "/exact/client"),
  ]);
  const wallet = await openWallet(key);
  const { policy } = session;
  const signer = {
    address: wallet.address,
    signTypedData: async (typed: TypedData) => {
      const wrong = checkTyped(typed, session.chosen, policy);
      if (wrong !== null) stop(session, new PaymentRequiredError(`refusing to pay: ${wrong}`, null, null, "policy"));
      options.onPay?.(session.chosen!);
      session.signed = true;
      return await wallet.signTypedData(typed);
    },
  };
  const payer = new x402Client((_version, offers) => {
    session.chosen = offers[0] as unknown as PaymentRequirements;
    return offers[0];
  });
  const scheme = new ExactEvmScheme(signer);
  for (const network of policy.networks) payer.register(network as `${string}:${string}`, scheme);
  // The library's own spend controls are off: the policy here is the only limit (origin-wire 5.2).
  payer.setSpendControls(false);
  payer.registerPolicy((_version, offers) =>
    applyPolicy({ x402Version: 2, accepts: offers as unknown as PaymentRequirements[] }, policy)
      .kept as unknown as typeof offers
  );
  return { payer, wrap: wrapFetchWithPayment };
}

/**
 * The fetch the x402 client sends through: within the purchase's deadline,
 * redirects followed, and a 402 whose offers the policy all refuses stopped
 * before anything is signed.
 */
function heldFetch(
  session: Session,
  deadline: AbortSignal,
  seconds: number,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  const { pay, policy } = session;
  return async (input, init) => {
    const request = new Request(input, init);
    let res: Response;
    try {
      res = await fetch(request, { signal: deadline, redirect: "follow" });
    } catch (e) {
      if (deadline.aborted) stop(session, new SvcError(`${pay} did not answer within ${seconds}s`, null, "timeout"));
      const reason = `${(e as Error)?.message ?? e} — check SVC_PAY_URL (or SVC_BASE_URL) and your network`;
      return stop(session, new SvcError(`cannot reach ${pay}: ${reason}`, null, "network"));
    }
    if (res.status !== 402 || request.headers.has("payment-signature")) return res;
    const text = await res.text();
    const required = readPaymentRequired(res.headers, text);
    const verdict = required
      ? applyPolicy(required, policy)
      : { kept: [], reasons: ["the 402 carries no x402 payment requirements"] };
    if (verdict.kept.length === 0) {
      stop(session, new PaymentRequiredError(`refusing to pay: ${verdict.reasons.join("; ")}`, null, null, "policy"));
    }
    return new Response(text, { status: 402, headers: res.headers });
  };
}

/** What the pay service answered, once paid (or free): its JSON body and the receipt. */
async function paidAnswer(session: Session, res: Response, seconds: number): Promise<Paid> {
  const { pay } = session;
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new SvcError(`${pay} did not answer within ${seconds}s (${(e as Error)?.message})`, null, "timeout");
  }
  if (res.status >= 400) {
    const required = decodeHeaderJson(res.headers.get("payment-required")) as PaymentRequired | null;
    const brief = typeof required?.error === "string" && required.error.trim() !== ""
      ? required.error.trim().slice(0, 300)
      : readErrorAnswer(res.status, res.statusText, text).message;
    throw new SvcError(`purchase failed: ${brief}`, res.status, "purchase_failed");
  }
  let body: unknown;
  try {
    body = text === "" ? null : parseExactJson(text);
  } catch {
    const type = res.headers.get("content-type") ?? "no content type";
    throw new SvcError(
      `${pay} answered with ${type}, not JSON — is this the SVC pay service?`,
      res.status,
      "bad_answer",
    );
  }
  const receipt = decodeHeaderJson(res.headers.get("payment-response")) as PaymentReceipt | null;
  const offer = session.signed ? session.chosen : null;
  return { body, receipt: receipt && typeof receipt === "object" ? receipt : null, offer };
}

/**
 * Buys `path` of the client's pay service with x402 under `options`.
 */
export async function x402Get(
  client: OriginClient,
  path: string,
  params: Record<string, string | number | undefined>,
  options: PayOptions = {},
): Promise<Paid> {
  const env = client.payments.env;
  const key = walletKey(options.walletKey, env);
  const policy: PayPolicy = { networks: allowedNetworks(options.networks, env), cap: capAtomic(options.maxPrice, env) };
  const session: Session = { policy, pay: client.payUrl, chosen: null, signed: false, stopped: null };
  const { payer, wrap } = await payingClient(session, key, options);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, String(v));
  const url = `${session.pay}${path}${query.size > 0 ? `?${query}` : ""}`;
  const seconds = (options.timeoutMs ?? PURCHASE_TIMEOUT_MS) / 1000;
  const held = heldFetch(session, AbortSignal.timeout(options.timeoutMs ?? PURCHASE_TIMEOUT_MS), seconds);
  let res: Response;
  try {
    res = await wrap(held, payer)(url, { method: "GET" });
  } catch (e) {
    if (session.stopped) throw session.stopped;
    const reason = (e as Error)?.message ?? String(e);
    if (!session.signed) throw new PaymentRequiredError(`refusing to pay: ${reason}`, null, null, "policy");
    throw new SvcError(`purchase failed: ${reason}`, null, "purchase_failed");
  }
  return await paidAnswer(session, res, seconds);
}

/**
 * `body` with the receipt attached as `x402` when the body is a JSON object
 * and a receipt came (origin-wire 5.2).
 *
 * @example
 * ```ts
 * import { withReceipt } from "./purchase.ts";
 * withReceipt({ id: "u1" }, { success: true, transaction: "0x1", network: "eip155:84532", payer: "0x2" }).x402?.transaction;
 * // "0x1"
 * ```
 */
export function withReceipt<T>(body: T, receipt: PaymentReceipt | null): T & { x402?: PaymentReceipt } {
  if (receipt === null || body === null || typeof body !== "object" || Array.isArray(body)) {
    return body as T & { x402?: PaymentReceipt };
  }
  return { ...body, x402: receipt };
}
