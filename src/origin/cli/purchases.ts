/**
 * `svc purchases [--limit 50] [--before CURSOR] [--json]`: the wallet's
 * purchase history from the pay service, behind a signed statement; and
 * `svc dispute TX --reason TEXT` (open a dispute on a purchase, within 7
 * days of settlement) or `svc dispute --status ID` (a dispute's state).
 *
 * @module
 */
import process from "node:process";
import { disputeStatus, openDispute, purchases } from "../pay/mod.ts";
import type { Dispute, Purchase } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { CliError, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { PAY_ENV_HELP, PAY_FLAG_HELP, PAY_FLAGS, payClient, printJson, usd } from "./pay_common.ts";

/** The help text of `svc purchases`. */
export const PURCHASES_HELP = `Usage: svc purchases [--limit N] [--before CURSOR] [options]

List the wallet's purchases, newest first. The pay service sends a statement
that is rebuilt here and must match byte for byte (and be within 300 s of
this machine's clock) before the wallet signs it; only the address, the time
and the signature are sent.

Options:
  --limit N        purchases per page (default: 50)
  --before CURSOR  the page after the one whose "more" line named CURSOR
${PAY_FLAG_HELP}

${PAY_ENV_HELP}
`;

/** The help text of `svc dispute`. */
export const DISPUTE_HELP = `Usage: svc dispute TRANSACTION --reason TEXT [options]
       svc dispute --status ID [options]

Open a dispute on a purchase (within 7 days of its settlement), named by its
settlement transaction (0x and 64 hex digits: the x402 transaction of the
purchase, also in svc purchases), signed by the wallet that paid; or show the
state of dispute ID. After review the refund goes on chain to the wallet.

Options:
  --reason TEXT    why (3 to 500 characters; required to open)
  --status         show dispute ID instead of opening one
${PAY_FLAG_HELP}

${PAY_ENV_HELP}
`;

/**
 * One purchase as a line of `svc purchases`.
 */
export function purchaseLine(p: Purchase): string {
  const what = p.kind === "unit" && p.unit
    ? `unit ${p.unit.id} (${p.unit.title})`
    : p.kind === "dataset" && p.dataset
    ? `dataset ${p.dataset.slug} v${p.dataset.version}`
    : `credits for ${p.credits?.operatorId ?? "the operator"}`;
  const dispute = p.dispute
    ? `dispute ${p.dispute.id} ${p.dispute.status}`
    : p.disputeUntil
    ? `disputable until ${p.disputeUntil.slice(0, 10)}`
    : "";
  return [p.createdAt, what, usd(p.amountMicro), p.status, p.transaction ?? "-", dispute].filter((s) => s !== "")
    .join("  ");
}

/**
 * A dispute's state as `svc dispute --status` prints it.
 */
export function disputeText(d: Dispute): string {
  const lines = [
    `dispute ${d.id}: ${d.status} · ${d.kind} ${usd(d.amountMicro)}`,
    `  transaction ${d.transaction}`,
    `  reason      ${d.reason}`,
  ];
  if (d.refundMicro !== null && d.refundMicro !== undefined) {
    lines.push(`  refund      ${usd(d.refundMicro)}${d.refundTx ? ` · transaction ${d.refundTx}` : ""}`);
  }
  if (d.note) lines.push(`  note        ${d.note}`);
  return lines.join("\n") + "\n";
}

/**
 * Runs `svc purchases` with `args`; resolves with the exit code.
 */
export async function purchasesCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...PAY_FLAGS,
    limit: { type: "string" },
    before: { type: "string" },
  }, "purchases");
  if (values.help) {
    process.stdout.write(PURCHASES_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError("svc purchases takes no arguments");
  const limit = intFlag("limit", values.limit, 1) ?? 50;
  const page = await purchases(payClient(values), { limit, before: values.before });
  if (values.json) {
    await printJson(page);
    return 0;
  }
  const lines = page.purchases.length === 0 ? [`no purchases by ${page.wallet}`] : page.purchases.map(purchaseLine);
  if (page.next) lines.push(`more: svc purchases --before ${page.next}`);
  await writeOut(lines.join("\n") + "\n");
  return 0;
}

/**
 * Runs `svc dispute` with `args`; resolves with the exit code.
 */
export async function disputeCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...PAY_FLAGS,
    reason: { type: "string" },
    status: { type: "boolean" },
  }, "dispute");
  if (values.help) {
    process.stdout.write(DISPUTE_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      values.status ? "svc dispute --status takes one dispute ID" : "svc dispute takes one TRANSACTION",
    );
  }
  const client = payClient(values);
  if (values.status) {
    if (values.reason !== undefined) throw new UsageError("--reason does not go with --status");
    const dispute = await disputeStatus(client, positionals[0]);
    await (values.json ? printJson(dispute) : writeOut(disputeText(dispute)));
    return 0;
  }
  if (values.reason === undefined || values.reason.trim() === "") {
    throw new CliError("--reason is required to open a dispute (svc dispute TRANSACTION --reason TEXT)");
  }
  const opened = await openDispute(client, positionals[0], values.reason);
  if (values.json) await printJson(opened);
  else {
    await writeOut(
      `dispute ${opened.id} ${opened.status}: ${opened.kind} ${usd(opened.amountMicro)} ` +
        `(svc dispute --status ${opened.id})\n`,
    );
  }
  return 0;
}
