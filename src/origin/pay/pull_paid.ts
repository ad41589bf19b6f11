/**
 * A paid dataset version into a local store (origin-wire 5.2 `pull_paid`):
 * bought with x402, then pulled as `pull` does from the manifest the
 * purchase answered (the same layout on disk; the manifest kept there drops
 * `urlExpiresAt`, `paid` and `x402`). A pinned version already whole in the
 * store is not bought again; without a version the newest is always bought.
 *
 * @module
 */
import { SvcError } from "@svc/cli/client";
import type { OriginClient } from "../client/mod.ts";
import { heldWhole, pull, type PullOptions, type PullResult } from "@svc/cli/local";
import { isSlug, type Manifest, notASlug } from "@svc/cli/wire";
import type { PaymentReceipt } from "../wire/mod.ts";
import { buyDataset } from "./buy.ts";
import type { PayOptions } from "./purchase.ts";

/** How to pull a paid version: a pull's options (no manifest) and a purchase's. */
export type PullPaidOptions = Omit<PullOptions, "manifest"> & PayOptions;

/** What a paid pull did: a pull's result, whether it paid, and the receipt. */
export interface PullPaidResult extends PullResult {
  /** False when the pinned version was already whole in the store (nothing bought). */
  paid: boolean;
  /** The settlement receipt, when it paid. */
  x402: PaymentReceipt | null;
}

/** The pinned version when the store holds it whole, as a pull that fetched nothing. */
async function held(slug: string, options: PullPaidOptions): Promise<PullPaidResult | null> {
  if (options.version === undefined) return null;
  const whole = await heldWhole(options.store, slug, options.version, options.trust?.required === true);
  return whole === null ? null : { ...whole, paid: false, x402: null };
}

/**
 * Buys `slug` (version `options.version`, else the newest) with x402 and
 * pulls it into `options.store`.
 */
export async function pullPaid(client: OriginClient, slug: string, options: PullPaidOptions): Promise<PullPaidResult> {
  if (!isSlug(slug)) throw new SvcError(notASlug(slug), null, "bad_slug");
  const already = await held(slug, options);
  if (already) return already;
  const { walletKey, maxPrice, networks, timeoutMs, onPay, ...pulling } = options;
  const bought = await buyDataset(client, slug, options.version, { walletKey, maxPrice, networks, timeoutMs, onPay });
  const { paid: _paid, x402, ...manifest } = bought;
  const result = await pull(client, slug, { ...pulling, manifest: manifest as Manifest });
  return { ...result, paid: true, x402: x402 ?? null };
}
