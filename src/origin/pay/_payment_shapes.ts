/**
 * What payments use of the packages `packages.ts` loads at run time, as
 * types: a specifier built at run time brings none (the tests check that
 * the packages' own types fit these, see `tests/support/payment_packages.ts`).
 *
 * @module
 */

/** EIP-712 typed data as viem signs it. */
export interface TypedData {
  /** The domain (`name`, `version`, `chainId`, `verifyingContract`, ...). */
  domain: Record<string, unknown>;
  /** The struct types, without `EIP712Domain`. */
  types: Record<string, readonly { name: string; type: string }[]>;
  /** The struct signed. */
  primaryType: string;
  /** Its values. */
  message: Record<string, unknown>;
}

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/** What payments read of an offer as the x402 client hands it over (it holds more: see `PaymentRequirements`). */
export interface X402Offer {
  /** The CAIP-2 network. */
  network: `${string}:${string}`;
}

/** Picks the offer to pay among those the policy kept (one of them). */
export type OfferSelector = <O extends X402Offer>(version: number, offers: O[]) => O;

/** Keeps the offers that may be paid (some of them). */
export type OfferPolicy = <O extends X402Offer>(version: number, offers: O[]) => O[];

/** `x402Client` of `@x402/fetch`: the schemes it pays with and its policies. */
export interface X402Client {
  /** Pays on `network` (CAIP-2) with `scheme`. */
  register(network: `${string}:${string}`, scheme: X402Scheme): unknown;
  /** The library's own spend limits; `false` turns them off. */
  setSpendControls(controls: false): unknown;
  /** A policy the offers pass before one is chosen. */
  registerPolicy(policy: OfferPolicy): unknown;
}

/** A payment scheme (`ExactEvmScheme`). */
export interface X402Scheme {
  /** The scheme's name (`exact`). */
  readonly scheme: string;
}

/** The part of `@x402/fetch` payments use (`C`: the client class, as the tests name it to check the shape). */
export interface X402FetchModule<C extends X402Client = X402Client> {
  /** A client choosing among offers with `select`. */
  x402Client: new (select: OfferSelector) => C;
  /** `fetch` that answers a 402 by paying through `client`. */
  wrapFetchWithPayment(
    fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
    client: C,
  ): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}

/** What signs an EVM payment. */
export interface EvmSigner {
  /** The signer's address. */
  readonly address: Hex;
  /** An EIP-712 signature of `typed`. */
  signTypedData(typed: TypedData): Promise<Hex>;
}

/** The part of `@x402/evm/exact/client` payments use. */
export interface X402EvmModule {
  /** The `exact` scheme on EVM networks, signing with `signer`. */
  ExactEvmScheme: new (signer: EvmSigner) => X402Scheme;
}

/** A viem local account. */
export interface ViemAccount {
  /** The checksummed address. */
  readonly address: Hex;
  /** An EIP-712 signature of `typed`. */
  signTypedData(typed: TypedData): Promise<Hex>;
  /** An EIP-191 signature of `message`. */
  signMessage(args: { message: string }): Promise<Hex>;
}

/** The part of `viem/accounts` payments use. */
export interface ViemAccountsModule {
  /** The account of a private key (throws on an invalid key). */
  privateKeyToAccount(key: Hex): ViemAccount;
}
