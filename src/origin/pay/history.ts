/**
 * The purchase history and disputes of a wallet (origin-wire 5.1, 5.6):
 * each asks the pay service for a statement, checks it (time within 300 s,
 * the text rebuilt here byte for byte), signs the text built here with
 * EIP-191 and sends only the address, the time and the signature.
 *
 * @module
 */
import type { OriginClient } from "../client/mod.ts";
import { SvcError } from "@svc/cli/client";
import type { Dispute, DisputeOpened, PurchasePage } from "../wire/mod.ts";
import {
  checkStatement,
  disputeStatement,
  payOrigin,
  purchaseHistoryStatement,
  transactionHash,
} from "./statements.ts";
import { openWallet, walletKey } from "./wallet.ts";

/** The wallet and the clock a signed statement uses. */
export interface StatementOptions {
  /** The wallet's private key (default `SVC_WALLET_KEY` of the client's environment). Never sent. */
  walletKey?: string;
  /** This machine's clock, in milliseconds (default `Date.now`). */
  now?: () => number;
}

/**
 * A page of the wallet's purchases, newest first (`limit` default 50;
 * `before` the `next` of the page before).
 */
export async function purchases(
  client: OriginClient,
  options: StatementOptions & { limit?: number; before?: string } = {},
): Promise<PurchasePage> {
  const wallet = await openWallet(walletKey(options.walletKey, client.payments.env));
  const address = wallet.address.toLowerCase();
  const origin = payOrigin(client.payUrl);
  const answer = await client.payments.purchaseStatement(address);
  const build = (time: number) => purchaseHistoryStatement(address, origin, time);
  const time = checkStatement(answer, build, (options.now ?? Date.now)());
  const signature = await wallet.signMessage(build(time));
  return await client.payments.purchases({ wallet: address, time, signature }, {
    limit: options.limit,
    before: options.before,
  });
}

/**
 * Opens a dispute on the purchase settled by `transaction` (within 7 days of
 * settlement; `reason` 3 to 500 characters).
 */
export async function openDispute(
  client: OriginClient,
  transaction: string,
  reason: string,
  options: StatementOptions = {},
): Promise<DisputeOpened> {
  const tx = transactionHash(transaction);
  if (typeof reason !== "string" || reason.trim() === "") {
    throw new SvcError("a dispute needs a reason", null, "no_reason");
  }
  const wallet = await openWallet(walletKey(options.walletKey, client.payments.env));
  const address = wallet.address.toLowerCase();
  const origin = payOrigin(client.payUrl);
  const answer = await client.payments.disputeStatement(tx, address);
  const build = (time: number) => disputeStatement(tx, address, origin, time);
  const time = checkStatement(answer, build, (options.now ?? Date.now)());
  const signature = await wallet.signMessage(build(time));
  return await client.payments.openDispute({ transaction: tx, reason, wallet: address, time, signature });
}

/**
 * A dispute's state (`GET /disputes/{id}`); no wallet needed.
 */
export async function disputeStatus(client: OriginClient, id: string): Promise<Dispute> {
  if (typeof id !== "string" || id.trim() === "") throw new SvcError("a dispute id is needed", null, "bad_id");
  return await client.payments.dispute(id.trim());
}
