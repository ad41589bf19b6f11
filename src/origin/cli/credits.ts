/**
 * `svc credits [--json]`: the operator's credits (`GET /credits`,
 * origin-wire 3.10): balance, one line per grant of given credits, prices,
 * how to top up, the last 10 ledger entries. `svc credits buy [--max-price
 * USD]`: a credit pack paid by the wallet with x402 (`GET
 * <pay>/paid/credits?operator=`).
 *
 * @module
 */
import process from "node:process";
import { buyCredits } from "../pay/mod.ts";
import type { CreditsView } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { PAY_ENV_HELP, PAY_FLAG_HELP, PAY_FLAGS, payClient, printJson, usd } from "./pay_common.ts";

/** The help text of `svc credits`. */
export const CREDITS_HELP = `Usage: svc credits [buy] [--max-price USD] [options]

Without buy, show the operator's credits: the balance, what is left of each
grant of given credits (spent first, only on egress, storage and trial-sale
listings), the prices, how to top up and the last 10 ledger entries.
With buy, buy a credit pack with the wallet (x402) for the operator.

Options:
  --max-price USD  with buy: the most the pack may cost (default:
                   SVC_MAX_PRICE or 1.00)
${PAY_FLAG_HELP}

${PAY_ENV_HELP}
`;

/**
 * The lines of `svc credits` (origin-wire 3.10).
 */
export function creditsText(view: CreditsView): string {
  const lines = [
    `balance  ${usd(view.balanceMicro)} paid · ${usd(view.grantMicro)} given · ${usd(view.spendableMicro)} spendable`,
  ];
  for (const g of view.grants ?? []) {
    lines.push(
      `given    ${usd(g.remainingMicro)} of ${usd(g.amountMicro)} (${g.kind}) until ${
        String(g.expiresAt).slice(0, 10)
      }`,
    );
  }
  const p = view.prices;
  lines.push(
    `prices   egress ${usd(p.egressMicroPerGb)}/GB · storage ${usd(p.storageMicroPerGibMonth)}/GiB-month · ` +
      `credit pack ${usd(p.packMicro)}`,
  );
  lines.push(`top up   svc credits buy (x402: ${view.topup})`);
  const ledger = (view.ledger ?? []).slice(0, 10);
  if (ledger.length > 0) lines.push("ledger (latest first):");
  for (const e of ledger) {
    const sign = e.amountMicro >= 0 ? "+" : "";
    const given = e.grantMicro ? ` (${usd(e.grantMicro)} given)` : "";
    lines.push(`  ${e.createdAt}  ${e.kind.padEnd(10)} ${sign}${usd(e.amountMicro)}${given}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * Runs `svc credits` with `args`; resolves with the exit code.
 */
export async function creditsCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, { ...PAY_FLAGS, "max-price": { type: "string" } }, "credits");
  if (values.help) {
    process.stdout.write(CREDITS_HELP);
    return 0;
  }
  if (positionals.length > 1 || (positionals.length === 1 && positionals[0] !== "buy")) {
    throw new UsageError("svc credits takes nothing, or buy");
  }
  const client = payClient(values);
  if (positionals.length === 0) {
    if (values["max-price"] !== undefined) throw new UsageError("--max-price goes with svc credits buy");
    const view = await client.payments.credits();
    await (values.json ? printJson(view) : writeOut(creditsText(view)));
    return 0;
  }
  const bought = await buyCredits(client, { maxPrice: values["max-price"] });
  if (values.json) await printJson(bought);
  else await writeOut(`credited ${usd(bought.creditedMicro)} → balance ${usd(bought.balanceMicro)}\n`);
  return 0;
}
