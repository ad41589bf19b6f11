/**
 * What x402 buys (origin-wire 5.1-5.2): a knowledge unit, a dataset version
 * and a credit pack, each paid by the wallet, with the settlement receipt
 * attached as `x402`.
 *
 * @module
 */
import type { OriginClient } from "../client/mod.ts";
import { SvcError } from "@svc/cli/client";
import { isSlug, type Manifest, notASlug } from "@svc/cli/wire";
import type { CreditPackPurchase, PaymentReceipt } from "../wire/mod.ts";
import { type PayOptions, withReceipt, x402Get } from "./purchase.ts";

/** A dataset version bought with x402: the manifest with 15-minute part URLs. */
export type PaidManifest = Manifest & { urlExpiresAt?: string; paid?: boolean; x402?: PaymentReceipt };

/**
 * Buys knowledge unit `unitId` (`GET /paid/knowledge?id=`): the unit with
 * its body, plus `x402`.
 */
export async function buy(
  client: OriginClient,
  unitId: string,
  options: PayOptions = {},
): Promise<Record<string, unknown> & { x402?: PaymentReceipt }> {
  if (typeof unitId !== "string" || unitId.trim() === "") throw new SvcError("a unit id is needed", null, "bad_id");
  const paid = await x402Get(client, "/paid/knowledge", { id: unitId }, options);
  return withReceipt(paid.body as Record<string, unknown>, paid.receipt);
}

/**
 * Buys version `version` of dataset `slug` (default the newest;
 * `GET /paid/dataset?slug=&version=`): the manifest with 15-minute part
 * URLs, `urlExpiresAt`, `paid` and `x402`.
 */
export async function buyDataset(
  client: OriginClient,
  slug: string,
  version?: number,
  options: PayOptions = {},
): Promise<PaidManifest> {
  if (!isSlug(slug)) throw new SvcError(notASlug(slug), null, "bad_slug");
  const paid = await x402Get(client, "/paid/dataset", { slug, version }, options);
  const manifest = paid.body as PaidManifest | null;
  if (!manifest || typeof manifest !== "object" || manifest.project !== slug || !Array.isArray(manifest.parts)) {
    throw new SvcError(`the pay service answered no manifest of ${slug}`, null, "bad_answer");
  }
  if (version !== undefined && manifest.version !== version) {
    throw new SvcError(`the pay service sold ${slug} v${manifest.version}, not v${version}`, null, "bad_answer");
  }
  return withReceipt(manifest, paid.receipt);
}

/**
 * Buys a credit pack for the operator (`GET /paid/credits?operator=`). With
 * no `operatorId`, it is read from `GET /credits` on the origin first, which
 * needs the agent key (the pay service never sees it).
 */
export async function buyCredits(
  client: OriginClient,
  options: PayOptions & { operatorId?: string } = {},
): Promise<CreditPackPurchase> {
  const { operatorId, ...pay } = options;
  const operator = operatorId ?? (await client.payments.credits()).operatorId;
  const paid = await x402Get(client, "/paid/credits", { operator }, pay);
  return withReceipt(paid.body as CreditPackPurchase, paid.receipt);
}
