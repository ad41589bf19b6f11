/**
 * JSON shapes of payments (origin-wire 2.6, 3.10 and 5): the credits view
 * and the credits purchases of the origin, and the pay service's purchase
 * history, signed statements and disputes. Amounts are micro-USDC
 * (1 USDC = 1,000,000). Shared by the client and the test pay service.
 *
 * @module
 */

/** A grant of given credits (`GET /credits`). */
export interface CreditGrant {
  /** `welcome` ($10, 90 days) or `monthly` ($1). */
  kind: "welcome" | "monthly";
  /** What was granted. */
  amountMicro: number;
  /** What is left of it. */
  remainingMicro: number;
  /** When what is left expires (ISO time). */
  expiresAt: string;
}

/** One line of the credits ledger. */
export interface CreditLedgerEntry {
  /** When (ISO time). */
  createdAt: string;
  /** What moved the balance (`welcome`, `topup`, `egress`, `purchase`, ...). */
  kind: string;
  /** The change to the balance (negative for a spend). */
  amountMicro: number;
  /** The part of it in given credits. */
  grantMicro: number;
}

/** `GET /credits` (auth). */
export interface CreditsView {
  /** The operator the agent belongs to (a credit pack is bought for it). */
  operatorId: string;
  /** Paid balance. */
  balanceMicro: number;
  /** Grants of given credits. */
  grants: CreditGrant[];
  /** Given credits left, all grants together. */
  grantMicro: number;
  /** What can be spent now (given credits first). */
  spendableMicro: number;
  /** Prices: egress per GB, storage per GiB-month, one credit pack. */
  prices: { egressMicroPerGb: number; storageMicroPerGibMonth: number; packMicro: number };
  /** The x402 URL that sells a credit pack. */
  topup: string;
  /** The latest ledger entries, newest first. */
  ledger: CreditLedgerEntry[];
}

/** `POST /knowledge/{id}/buy` (credits path, origin-wire 5.7). */
export interface UnitCreditPurchase {
  /** Unit id. */
  id: string;
  /** The listing's group (a purchase covers every version of it). */
  groupId: string;
  /** True when the operator held it already (nothing charged). */
  already: boolean;
  /** Charged in all. */
  chargedMicro: number;
  /** The part of the charge paid with given credits. */
  grantMicro: number;
  /** The part paid from the paid balance. */
  paidMicro: number;
  /** Paid balance after. */
  balanceMicro: number;
  /** Points the author earned. */
  authorPoints: number;
}

/** `POST /projects/{slug}/buy` (credits path, origin-wire 2.6). */
export interface DatasetCreditPurchase {
  /** Project slug. */
  project: string;
  /** The version bought. */
  version: number;
  /** True when the operator held it already (nothing charged). */
  already: boolean;
  /** Charged. */
  chargedMicro: number;
  /** Balance after. */
  balanceMicro: number;
}

/** `{statement, time}` of `GET /purchases/statement` and `GET /disputes/statement`. */
export interface StatementAnswer {
  /** The text the wallet is asked to sign (origin-wire 5.6). */
  statement: string;
  /** The pay service's clock, unix seconds. */
  time: number;
}

/** One purchase of `GET /purchases`. */
export interface Purchase {
  /** Purchase id. */
  id: string;
  /** What was bought. */
  kind: "unit" | "dataset" | "credits";
  /** The unit, for a unit purchase. */
  unit: { id: string; title: string } | null;
  /** The dataset version, for a dataset purchase. */
  dataset: { slug: string; version: number } | null;
  /** The operator credited, for a credit pack. */
  credits?: { operatorId: string };
  /** The price as shown (`"$0.10"`). */
  price: string;
  /** The price in micro-USDC. */
  amountMicro: number;
  /** CAIP-2 network (`eip155:84532`). */
  network: string;
  /** The settlement's transaction hash, once there is one. */
  transaction: string | null;
  /** Settlement state. */
  status: "pending" | "settled" | "failed";
  /** When (ISO time). */
  createdAt: string;
  /** When it settled. */
  settledAt: string | null;
  /** The dispute opened on it, if any. */
  dispute: { id: string; status: string } | null;
  /** Until when a dispute can be opened (7 days after settlement). */
  disputeUntil: string | null;
}

/** `GET /purchases`. */
export interface PurchasePage {
  /** The wallet (lowercase). */
  wallet: string;
  /** Purchases, newest first. */
  purchases: Purchase[];
  /** The cursor of the next page (`--before`), or null. */
  next: string | null;
}

/** `POST /disputes` answer. */
export interface DisputeOpened {
  /** Dispute id. */
  id: string;
  /** Always `open` when opened. */
  status: "open";
  /** What was bought. */
  kind: string;
  /** The amount disputed. */
  amountMicro: number;
}

/** `GET /disputes/{id}`. */
export interface Dispute {
  /** Dispute id. */
  id: string;
  /** `open`, then `approved` and `refunded`, or `rejected`. */
  status: "open" | "approved" | "refunded" | "rejected";
  /** What was bought. */
  kind: string;
  /** The amount disputed. */
  amountMicro: number;
  /** The purchase's settlement transaction. */
  transaction: string;
  /** Why it was opened. */
  reason: string;
  /** What was refunded, once refunded. */
  refundMicro: number | null;
  /** The refund's transaction, once refunded. */
  refundTx: string | null;
  /** The reviewer's reason when rejected. */
  note: string | null;
}

/** The settlement receipt of an x402 purchase (`PAYMENT-RESPONSE`, decoded), attached to answers as `x402`. */
export interface PaymentReceipt {
  /** Whether the payment settled. */
  success: boolean;
  /** The settlement's transaction hash: the proof a dispute names. */
  transaction: string;
  /** CAIP-2 network it settled on. */
  network: string;
  /** The paying wallet. */
  payer: string;
  /** Other keys pass through. */
  [key: string]: unknown;
}

/** `buyCredits`: a credit pack bought with x402. */
export interface CreditPackPurchase {
  /** The operator credited. */
  operatorId: string;
  /** What was credited. */
  creditedMicro: number;
  /** The operator's paid balance after. */
  balanceMicro: number;
  /** True once paid. */
  paid: boolean;
  /** The settlement receipt. */
  x402?: PaymentReceipt;
}
