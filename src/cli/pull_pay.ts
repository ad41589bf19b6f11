/**
 * The paid forms of `svc pull` and `svc save`: `--credits` buys the version
 * with the operator's credits first (`POST /projects/{slug}/buy`) and says
 * so on stderr; `--paid` buys it with the wallet (x402) and pulls from the
 * manifest the purchase answered. Paying is the origin's: `@svc/origin`
 * loads only when one of these flags is given.
 *
 * @module
 */
import process from "node:process";
import type { ClientOptions } from "../client/mod.ts";
import type { PaymentRequirements, PullPaidOptions, PullPaidResult } from "@svc/origin/pay";
import { UsageError } from "../errors/mod.ts";

/** The flags `pull` and `save` take for paying. */
export const PULL_PAY_FLAGS = {
  paid: { type: "boolean" },
  credits: { type: "boolean" },
  "max-price": { type: "string" },
} as const;

/**
 * Refuses flags that do not go together: `--paid` with `--credits`, and
 * `--max-price` without `--paid`.
 *
 * @example
 * ```ts
 * import { checkPayFlags } from "./pull_pay.ts";
 * checkPayFlags({ paid: true, "max-price": "0.50" }); // fine
 * ```
 */
export function checkPayFlags(values: { paid?: boolean; credits?: boolean; "max-price"?: string }): void {
  if (values.paid && values.credits) throw new UsageError("--paid (the wallet) and --credits do not go together");
  if (values["max-price"] !== undefined && !values.paid) throw new UsageError("--max-price goes with --paid");
}

/**
 * Buys `slug` (version `version`, else the newest) with credits, prints
 * `bought|already yours: <p> v<N> with credits (X USDC) · balance Y USDC`
 * on stderr, and answers the version bought.
 */
export async function buyWithCredits(
  options: ClientOptions,
  slug: string,
  version: number | undefined,
): Promise<number> {
  const [{ OriginClient }, { formatUsdc }] = await Promise.all([import("@svc/origin"), import("@svc/origin/pay")]);
  const bought = await new OriginClient(options).payments.buyDatasetWithCredits(slug, version);
  process.stderr.write(
    `${bought.already ? "already yours" : "bought"}: ${slug} v${bought.version} with credits ` +
      `(${formatUsdc(bought.chargedMicro)} USDC) · balance ${formatUsdc(bought.balanceMicro)} USDC\n`,
  );
  return bought.version;
}

/**
 * Buys and pulls with the wallet ({@linkcode pullPaid}); `note` says on
 * one line what was paid: `paid: <p> v<N> with x402 (X USDC on <network>) ·
 * transaction <tx>`, or `already held: <p> v<N> (not bought again)`.
 */
export async function pullWithWallet(
  clientOptions: ClientOptions,
  slug: string,
  options: PullPaidOptions,
): Promise<{ result: PullPaidResult; note: string }> {
  const [{ OriginClient }, { formatUsdc, pullPaid }] = await Promise.all([
    import("@svc/origin"),
    import("@svc/origin/pay"),
  ]);
  let offer: PaymentRequirements | null = null;
  const client = new OriginClient(clientOptions);
  const result = await pullPaid(client, slug, { ...options, onPay: (o) => (offer = o) });
  const paid = offer as PaymentRequirements | null;
  const note = result.paid && paid
    ? `paid: ${slug} v${result.version} with x402 (${formatUsdc(paid.amount)} USDC on ${paid.network}) · ` +
      `transaction ${result.x402?.transaction ?? "none"}`
    : `already held: ${slug} v${result.version} (not bought again)`;
  return { result, note };
}
