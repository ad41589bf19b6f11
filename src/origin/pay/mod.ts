/**
 * Payments that sign (`@svc/origin/pay`): x402 purchases of knowledge units,
 * dataset versions and credit packs paid by a wallet, a paid dataset pulled
 * into a local store, and the wallet's purchase history and disputes over
 * EIP-191 statements. Each takes an `OriginClient` of `@svc/origin` (its pay URL and
 * its `SVC_*` environment).
 *
 * The wallet key comes from the `walletKey` option or `SVC_WALLET_KEY`; it
 * signs here and is never logged or sent. Before anything is signed, each
 * offer of a 402 is held to the allowed networks (`SVC_X402_NETWORKS`,
 * default Base Sepolia `eip155:84532` only), to that network's USDC, and
 * to the price cap (`maxPrice`, `SVC_MAX_PRICE`, default $1.00; equal is
 * allowed); a refusal is a `PaymentRequiredError` with nothing signed.
 * Signing uses the x402 project's own client packages (`@x402/fetch`,
 * `@x402/evm`, viem), loaded on first use: importing this module loads no
 * npm package. Calls that need no wallet (credits, credit purchases, a
 * dispute's state) are `client.payments` of `@svc/origin`.
 *
 * @module
 */
export { buy, buyCredits, buyDataset, type PaidManifest } from "./buy.ts";
export { disputeStatus, openDispute, purchases, type StatementOptions } from "./history.ts";
export { pullPaid, type PullPaidOptions, type PullPaidResult } from "./pull_paid.ts";
export { type Paid, type PayOptions, PURCHASE_TIMEOUT_MS, withReceipt, x402Get } from "./purchase.ts";
export {
  applyPolicy,
  DEFAULT_TIMEOUT_SECONDS,
  type PayPolicy,
  type PolicyVerdict,
  readPaymentRequired,
} from "./policy.ts";
export { allowedNetworks, DEFAULT_NETWORKS, USDC_NETWORKS, type UsdcNetwork } from "./networks.ts";
export { capAtomic, DEFAULT_MAX_PRICE, formatUsdc } from "./cap.ts";
export {
  checkStatement,
  disputeStatement,
  payOrigin,
  purchaseHistoryStatement,
  STATEMENT_WINDOW_S,
  transactionHash,
} from "./statements.ts";
export { openWallet, type TypedData, type Wallet, walletKey } from "./wallet.ts";
export type {
  PaymentPayload,
  PaymentRequired,
  PaymentRequiredV1,
  PaymentRequirements,
  PaymentRequirementsV1,
  TransferAuthorization,
} from "./x402.ts";
export type {
  CreditGrant,
  CreditLedgerEntry,
  CreditPackPurchase,
  CreditsView,
  DatasetCreditPurchase,
  Dispute,
  DisputeOpened,
  PaymentReceipt,
  Purchase,
  PurchasePage,
  StatementAnswer,
  UnitCreditPurchase,
} from "../wire/mod.ts";
