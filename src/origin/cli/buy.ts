/**
 * `svc buy ID [--credits] [--max-price USD] [--json]`: a knowledge unit,
 * paid by the wallet with x402 (`GET <pay>/paid/knowledge?id=`), or with
 * `--credits` from the operator's credits (`POST /knowledge/{id}/buy`,
 * agent key; origin-wire 5.7).
 *
 * @module
 */
import process from "node:process";
import { buy, type PaymentRequirements } from "../pay/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { PAY_ENV_HELP, PAY_FLAG_HELP, PAY_FLAGS, payClient, printJson, usd } from "./pay_common.ts";

/** The help text of `svc buy`. */
export const BUY_HELP = `Usage: svc buy ID [--credits] [--max-price USD] [options]

Buy a knowledge unit. By default the wallet pays with x402 on the pay
service: the price is checked against the cap, the network and the asset
(USDC) before anything is signed. With --credits the operator's credits pay
instead (agent key; once for the whole operator, given credits first on
trial-sale listings).

Options:
  --credits        pay with credits (POST /knowledge/ID/buy) instead of the wallet
  --max-price USD  the most the purchase may cost (default: SVC_MAX_PRICE or 1.00)
${PAY_FLAG_HELP}

${PAY_ENV_HELP}
`;

/**
 * The line of a credits purchase (origin-wire 5.7).
 *
 * @example
 * ```ts
 * import { creditsBuyLine } from "./buy.ts";
 * creditsBuyLine({ id: "ku_1", already: false, chargedMicro: 100_000, grantMicro: 40_000 });
 * // "ku_1  paid $0.10 ($0.04 given)"
 * ```
 */
export function creditsBuyLine(
  answer: { id: string; already: boolean; chargedMicro: number; grantMicro: number },
): string {
  if (answer.already) return `${answer.id}  already yours`;
  const given = answer.grantMicro > 0 ? ` (${usd(answer.grantMicro)} given)` : "";
  return `${answer.id}  paid ${usd(answer.chargedMicro)}${given}`;
}

/**
 * Runs `svc buy` with `args`; resolves with the exit code.
 */
export async function buyCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...PAY_FLAGS,
    credits: { type: "boolean" },
    "max-price": { type: "string" },
  }, "buy");
  if (values.help) {
    process.stdout.write(BUY_HELP);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0].trim() === "") throw new UsageError("svc buy takes one unit ID");
  if (values.credits && values["max-price"] !== undefined) {
    throw new UsageError("--max-price is the wallet's cap; it does not go with --credits");
  }
  const id = positionals[0].trim();
  const client = payClient(values);
  const hint = `read it: svc read ${id}`;
  if (values.credits) {
    const answer = await client.payments.buyWithCredits(id);
    if (values.json) await printJson(answer);
    else await writeOut(`${creditsBuyLine(answer)}\n${hint}\n`);
    return 0;
  }
  let offer: PaymentRequirements | null = null;
  const unit = await buy(client, id, { maxPrice: values["max-price"], onPay: (o) => (offer = o) });
  if (values.json) {
    await printJson(unit);
    return 0;
  }
  const paid = offer as PaymentRequirements | null;
  const line = paid
    ? `${id}  paid ${usd(paid.amount)} with x402 on ${paid.network} · transaction ${unit.x402?.transaction ?? "none"}`
    : `${id}  nothing to pay`;
  await writeOut(`${line}\n${hint}\n`);
  return 0;
}
