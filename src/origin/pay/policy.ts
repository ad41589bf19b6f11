/**
 * What a 402 may be paid with (origin-wire 5.2-5.4): only `exact` offers on
 * an allowed network, in that network's USDC, for at most the cap, by an
 * EIP-3009 authorization. Everything else is refused with a reason, before
 * anything is signed. A v1 402 names networks the legacy way
 * (`base-sepolia`), never a CAIP-2 id, so it is always refused.
 *
 * @module
 */
import { decodeHeaderJson, type PaymentRequired, type PaymentRequiredV1, type PaymentRequirements } from "./x402.ts";
import { formatUsdc } from "./cap.ts";
import { USDC_NETWORKS } from "./networks.ts";

/** The limits a purchase is held to. */
export interface PayPolicy {
  /** Allowed CAIP-2 networks. */
  networks: readonly string[];
  /** The cap in USDC atomic units (equal is allowed). */
  cap: bigint;
}

/** The offers that may be paid, and why the others may not. */
export interface PolicyVerdict {
  /** Payable offers, with the EIP-712 domain and the timeout filled in from the table when absent. */
  kept: PaymentRequirements[];
  /** One reason per refused offer. */
  reasons: string[];
}

/** Seconds an authorization lives when the offer does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 3600;

/**
 * The payment requirements of a 402: the v2 `PAYMENT-REQUIRED` header, else
 * a v1 body (`x402Version: 1`), else null.
 *
 * @example
 * ```ts
 * import { readPaymentRequired } from "./policy.ts";
 * readPaymentRequired(new Headers(), '{"x402Version":1,"accepts":[]}'); // { x402Version: 1, accepts: [] }
 * readPaymentRequired(new Headers(), "<html>402</html>"); // null
 * ```
 */
export function readPaymentRequired(headers: Headers, body: string): PaymentRequired | PaymentRequiredV1 | null {
  const header = headers.get("payment-required");
  if (header !== null) {
    const v2 = decodeHeaderJson(header) as PaymentRequired | null;
    return v2 && typeof v2 === "object" && v2.x402Version === 2 && Array.isArray(v2.accepts) ? v2 : null;
  }
  try {
    const v1 = JSON.parse(body) as PaymentRequiredV1;
    return v1 && v1.x402Version === 1 && Array.isArray(v1.accepts) ? v1 : null;
  } catch {
    return null;
  }
}

/** Why `offer` may not be paid under `policy`, or null when it may. */
function refusal(offer: PaymentRequirements, policy: PayPolicy): string | null {
  const allowed = policy.networks.join(", ");
  if (offer?.scheme !== "exact") return `scheme ${JSON.stringify(offer?.scheme)} is not supported (only exact)`;
  if (!policy.networks.includes(offer.network)) {
    return `network ${offer.network} is not allowed (allowed: ${allowed}; opt in with SVC_X402_NETWORKS)`;
  }
  const usdc = USDC_NETWORKS[offer.network].usdc;
  if (typeof offer.asset !== "string" || offer.asset.toLowerCase() !== usdc.toLowerCase()) {
    return `asset ${offer.asset} on ${offer.network} is not that network's USDC (${usdc})`;
  }
  if (offer.extra?.assetTransferMethod !== undefined && offer.extra.assetTransferMethod !== "eip3009") {
    return `transfer method ${JSON.stringify(offer.extra.assetTransferMethod)} is not supported (only EIP-3009)`;
  }
  if (typeof offer.amount !== "string" || !/^[0-9]+$/.test(offer.amount)) {
    return `amount ${JSON.stringify(offer.amount)} is not a whole number of atomic units`;
  }
  if (BigInt(offer.amount) > policy.cap) {
    return `price ${formatUsdc(offer.amount)} USDC is over the cap of ${formatUsdc(policy.cap)} USDC ` +
      "(raise it with --max-price or SVC_MAX_PRICE)";
  }
  if (typeof offer.payTo !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(offer.payTo)) {
    return `payTo ${JSON.stringify(offer.payTo)} is not an address`;
  }
  return null;
}

/**
 * The offers of `required` that `policy` lets be paid, and the reasons for
 * the others.
 *
 * @example
 * ```ts
 * import { applyPolicy } from "./policy.ts";
 * const offer = {
 *   scheme: "exact", network: "eip155:84532", amount: "1000001",
 *   asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", payTo: "0x" + "1".repeat(40),
 * };
 * applyPolicy({ x402Version: 2, accepts: [offer] }, { networks: ["eip155:84532"], cap: 1_000_000n }).reasons;
 * // ["price 1.000001 USDC is over the cap of 1.00 USDC (raise it with --max-price or SVC_MAX_PRICE)"]
 * ```
 */
export function applyPolicy(required: PaymentRequired | PaymentRequiredV1, policy: PayPolicy): PolicyVerdict {
  if (required.accepts.length === 0) return { kept: [], reasons: ["the 402 offers no way to pay"] };
  if (required.x402Version === 1) {
    return {
      kept: [],
      reasons: required.accepts.map((offer) =>
        `network ${offer?.network} is not allowed (x402 v1 names no CAIP-2 network; allowed: ${
          policy.networks.join(", ")
        })`
      ),
    };
  }
  const kept: PaymentRequirements[] = [];
  const reasons: string[] = [];
  for (const offer of required.accepts) {
    const why = refusal(offer, policy);
    if (why !== null) {
      reasons.push(why);
      continue;
    }
    const table = USDC_NETWORKS[offer.network];
    kept.push({
      ...offer,
      maxTimeoutSeconds: offer.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      extra: { ...offer.extra, name: offer.extra?.name ?? table.name, version: offer.extra?.version ?? table.version },
    });
  }
  return { kept, reasons };
}
