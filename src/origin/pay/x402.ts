/**
 * The x402 payment protocol as the pay service speaks it (origin-wire 5.2):
 * a 402 with the requirements (v2 in a `PAYMENT-REQUIRED` header, v1 in the
 * body), the retry with a signed EIP-3009 authorization in
 * `PAYMENT-SIGNATURE`, and the receipt in `PAYMENT-RESPONSE`; each header is
 * base64 of UTF-8 JSON. Shared by the purchase flow and the test pay service.
 *
 * @module
 */

/** One way to pay that a v2 402 offers. */
export interface PaymentRequirements {
  /** `exact`. */
  scheme: string;
  /** CAIP-2 network, `eip155:<chainId>`. */
  network: string;
  /** Atomic units of the asset (USDC has 6 decimals), a decimal string. */
  amount: string;
  /** The token contract (USDC's, the EIP-712 `verifyingContract`). */
  asset: string;
  /** Who is paid. */
  payTo: string;
  /** How long an authorization may live, seconds. */
  maxTimeoutSeconds?: number;
  /** The token's EIP-712 domain `name` and `version` (and other hints). */
  extra?: { name?: string; version?: string; [key: string]: unknown };
  /** Other keys pass through. */
  [key: string]: unknown;
}

/** What a v2 402's `PAYMENT-REQUIRED` header holds. */
export interface PaymentRequired {
  /** 2. */
  x402Version: 2;
  /** Why payment is asked for (or why the last one failed). */
  error?: string;
  /** What is sold. */
  resource?: { url: string; description?: string; mimeType?: string };
  /** The ways to pay. */
  accepts: PaymentRequirements[];
  /** Protocol extensions. */
  extensions?: Record<string, unknown>;
}

/** One way to pay that a v1 402 body offers (legacy network names). */
export interface PaymentRequirementsV1 {
  /** `exact`. */
  scheme: string;
  /** A legacy name such as `base-sepolia`. */
  network: string;
  /** Atomic units. */
  maxAmountRequired: string;
  /** Other keys (resource, payTo, asset, maxTimeoutSeconds, extra). */
  [key: string]: unknown;
}

/** A v1 402 body. */
export interface PaymentRequiredV1 {
  /** 1. */
  x402Version: 1;
  /** Why. */
  error?: string;
  /** The ways to pay. */
  accepts: PaymentRequirementsV1[];
}

/** An EIP-3009 `TransferWithAuthorization` message; numbers as decimal strings. */
export interface TransferAuthorization {
  /** The paying wallet. */
  from: string;
  /** `payTo`. */
  to: string;
  /** `amount`. */
  value: string;
  /** Unix seconds after which it is valid. */
  validAfter: string;
  /** Unix seconds before which it is valid. */
  validBefore: string;
  /** 32 random bytes, 0x hex. */
  nonce: string;
}

/** What the `PAYMENT-SIGNATURE` header of a v2 retry holds. */
export interface PaymentPayload {
  /** 2. */
  x402Version: 2;
  /** The resource, as the 402 named it. */
  resource?: PaymentRequired["resource"];
  /** The requirement chosen. */
  accepted: PaymentRequirements;
  /** The signed authorization. */
  payload: { authorization: TransferAuthorization; signature: string };
  /** Protocol extensions. */
  extensions?: Record<string, unknown>;
}

/** The EIP-712 types of `TransferWithAuthorization` (EIP-3009). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES: {
  TransferWithAuthorization: { name: string; type: string }[];
} = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
};

/**
 * Base64 of the UTF-8 JSON of `value`: the form of the x402 headers.
 *
 * @example
 * ```ts
 * import { encodeHeaderJson } from "./x402.ts";
 * encodeHeaderJson({ a: 1 }); // "eyJhIjoxfQ=="
 * ```
 */
export function encodeHeaderJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

/**
 * The JSON an x402 header holds (base64 of UTF-8 JSON), or null when it is
 * not that.
 *
 * @example
 * ```ts
 * import { decodeHeaderJson } from "./x402.ts";
 * decodeHeaderJson("eyJhIjoxfQ=="); // { a: 1 }
 * decodeHeaderJson("not base64!"); // null
 * ```
 */
export function decodeHeaderJson(header: string | null): unknown {
  if (header === null || !/^[A-Za-z0-9+/=_-]+$/.test(header.trim())) return null;
  try {
    const text = atob(header.trim().replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}
