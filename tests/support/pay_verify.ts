/**
 * The test pay service's checks, written apart from the client and over
 * ethers: an x402 v2 payment (the authorization's EIP-712 signature
 * recovered to `from`, its payee, value, validity window and nonce against
 * the offer and the service's clock) and a statement's EIP-191 signature.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { verifyMessage, verifyTypedData } from "./ethers.ts";

/** An offer of the test pay service (x402 v2 `accepts` entry). */
export interface Offer {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
}

/** A payment that passed every check. */
export interface Verified {
  /** The wallet that signed (checksummed, as recovered). */
  payer: string;
  /** The offer it paid. */
  offer: Offer;
  /** The authorization's nonce. */
  nonce: string;
  /** The signature. */
  signature: string;
}

const TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
};

/** Slack allowed past `maxTimeoutSeconds` for the two clocks to differ. */
const SKEW_S = 60n;

/**
 * Checks a decoded `PAYMENT-SIGNATURE` against `offers` at `nowS` and the
 * nonces used so far: the payment, or why it is refused.
 */
export function verifyPayment(
  payment: unknown,
  offers: Offer[],
  nowS: number,
  usedNonces: ReadonlySet<string>,
): Verified | { error: string } {
  // deno-lint-ignore no-explicit-any
  const p = payment as any;
  if (!p || p.x402Version !== 2) return { error: "x402Version must be 2" };
  const offer = offers.find((o) => isDeepStrictEqual(o, p.accepted));
  if (!offer) return { error: "accepted is not one of the offers" };
  const auth = p.payload?.authorization;
  const signature = p.payload?.signature;
  if (!auth || typeof signature !== "string") return { error: "no authorization" };
  const domain = {
    name: String(offer.extra.name),
    version: String(offer.extra.version),
    chainId: Number(offer.network.split(":")[1]),
    verifyingContract: offer.asset,
  };
  let signer: string;
  try {
    signer = verifyTypedData(domain, TYPES, auth, signature);
  } catch (e) {
    return { error: `bad signature: ${(e as Error).message}` };
  }
  if (signer.toLowerCase() !== String(auth.from).toLowerCase()) return { error: "the signature is not from's" };
  if (String(auth.to).toLowerCase() !== offer.payTo.toLowerCase()) return { error: "to is not payTo" };
  if (BigInt(auth.value) !== BigInt(offer.amount)) return { error: "value is not the price" };
  const now = BigInt(nowS);
  if (BigInt(auth.validAfter) > now) return { error: "the authorization is not valid yet" };
  if (BigInt(auth.validBefore) <= now) return { error: "the authorization has expired" };
  if (BigInt(auth.validBefore) - now > BigInt(offer.maxTimeoutSeconds) + SKEW_S) {
    return { error: "the authorization lives longer than maxTimeoutSeconds" };
  }
  if (usedNonces.has(String(auth.nonce).toLowerCase())) return { error: "the nonce was used already" };
  return { payer: signer, offer, nonce: String(auth.nonce).toLowerCase(), signature };
}

/** The pay origin as statements name it, for a URL with no path: `scheme://host:port`. */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`.toLowerCase();
}

/** The purchase-history statement (origin-wire 5.6), built apart from the client's. */
export function historyText(wallet: string, origin: string, time: number): string {
  return `SVC purchase history\nwallet: ${wallet.toLowerCase()}\norigin: ${origin}\ntime: ${time}`;
}

/** The dispute statement (origin-wire 5.6), built apart from the client's. */
export function disputeText(tx: string, wallet: string, origin: string, time: number): string {
  return `SVC dispute\ntransaction: ${tx.toLowerCase()}\nwallet: ${wallet.toLowerCase()}\norigin: ${origin}\ntime: ${time}`;
}

/** Whether `signature` is `wallet`'s EIP-191 signature of `text`. */
export function signedBy(text: string, signature: unknown, wallet: string): boolean {
  try {
    return typeof signature === "string" && verifyMessage(text, signature).toLowerCase() === wallet.toLowerCase();
  } catch {
    return false;
  }
}
