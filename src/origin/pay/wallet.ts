/**
 * The wallet that signs purchases and statements: a secp256k1 private key
 * from the `walletKey` option or `SVC_WALLET_KEY`, held only in a closure,
 * never logged, never sent. Signing is viem's, loaded on first use (see
 * `packages.ts`) so that importing `@svc/origin/pay` loads no npm package.
 *
 * @module
 */
import { PaymentRequiredError } from "@svc/cli/client";
import { loadPaymentModule } from "./packages.ts";
import type { TypedData, ViemAccountsModule } from "./_payment_shapes.ts";

export type { TypedData };

/** A wallet: its address and its two kinds of signature. */
export interface Wallet {
  /** The checksummed address. */
  readonly address: `0x${string}`;
  /** An EIP-712 signature of `typed`, 0x hex of 65 bytes. */
  signTypedData(typed: TypedData): Promise<`0x${string}`>;
  /** An EIP-191 `personal_sign` signature of `text`, 0x hex of 65 bytes. */
  signMessage(text: string): Promise<`0x${string}`>;
}

/**
 * The wallet key: `option`, else `env.SVC_WALLET_KEY`; 32 bytes of hex,
 * with or without `0x`. Refused with `PaymentRequiredError` when absent or
 * malformed; the message never holds the key.
 *
 * @example
 * ```ts
 * import { walletKey } from "./wallet.ts";
 * walletKey(undefined, { SVC_WALLET_KEY: "AB".repeat(32) }) === "0x" + "ab".repeat(32); // true
 * ```
 */
export function walletKey(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): `0x${string}` {
  const raw = (option ?? env.SVC_WALLET_KEY ?? "").trim();
  if (raw === "") {
    throw new PaymentRequiredError(
      "no wallet key: set SVC_WALLET_KEY to the private key of the wallet that pays (it signs here and is never sent)",
      null,
      null,
      "no_wallet",
    );
  }
  const hex = raw.replace(/^0x/i, "");
  if (!/^[0-9a-fA-F]{64}$/.test(hex) || /^0+$/.test(hex)) {
    throw new PaymentRequiredError(
      "the wallet key is not a private key (64 hex digits, with or without 0x)",
      null,
      null,
      "bad_wallet",
    );
  }
  return `0x${hex.toLowerCase()}`;
}

/**
 * The wallet of `key` (see {@linkcode walletKey}).
 */
export async function openWallet(key: `0x${string}`): Promise<Wallet> {
  const { privateKeyToAccount } = await loadPaymentModule<ViemAccountsModule>("viem", "/accounts");
  let account;
  try {
    account = privateKeyToAccount(key);
  } catch {
    throw new PaymentRequiredError("the wallet key is not a valid secp256k1 private key", null, null, "bad_wallet");
  }
  return {
    address: account.address,
    signTypedData: (typed) => account.signTypedData(typed),
    signMessage: (text) => account.signMessage({ message: text }),
  };
}
