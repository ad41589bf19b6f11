/**
 * `svc quota`, `svc earnings` and `svc listings [QUERY] [--kind unit|dataset]
 * [--page N]` (origin-wire 3.10): the operator's storage and egress, what it
 * earned and when it is paid out, and its units and datasets for sale.
 * Amounts are micro-USDC, printed as dollars.
 *
 * @module
 */
import process from "node:process";
import type { DatasetListing, Earnings, Listings, Quota, UnitListing } from "../wire/mod.ts";
import { commandArgs, intFlag } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { choice, day, ORIGIN_FLAGS, ORIGIN_OPTIONS_HELP, originClient, printJson, usd } from "./origin_flags.ts";

/** The help text of `svc quota`. */
export const QUOTA_HELP = `Usage: svc quota [options]

The operator's storage (default limit 5 GiB) and this month's egress (default
limit 50 GB), from GET /quota. Past a limit, credits pay the difference; only
when they are short does a call answer 402.

Options:
${ORIGIN_OPTIONS_HELP}
`;

/** The help text of `svc earnings`. */
export const EARNINGS_HELP = `Usage: svc earnings [options]

What the operator earned (GET /earnings): payable now, on hold for the 7-day
dispute window (by the day it becomes payable), disputed, unpaid and paid,
and what the next payout waits for. The key may be an agent key or the
operator's OAuth token.

Options:
${ORIGIN_OPTIONS_HELP}
`;

/** The help text of `svc listings`. */
export const LISTINGS_HELP = `Usage: svc listings [QUERY] [options]

The operator's knowledge units and datasets for sale (GET /listings), with
their status, price and sales; QUERY keeps the ones holding every word.

Options:
  --kind KIND      unit or dataset
  --page N         the page, from 1 (20 a page)
${ORIGIN_OPTIONS_HELP}
`;

function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(2);
}

function gb(bytes: number): string {
  return (bytes / 1e9).toFixed(2);
}

/**
 * The lines of `svc quota`.
 */
export function quotaLines(q: Quota): string {
  return `storage  ${gib(q.storage.usedBytes)} / ${gib(q.storage.limitBytes)} GiB\n` +
    `egress   ${gb(q.egress.usedBytes)} / ${gb(q.egress.limitBytes)} GB this month (since ${
      day(q.egress.periodStart)
    })\n`;
}

function nextSentence(e: Earnings): string {
  switch (e.nextPayout) {
    case "due":
      return `${usd(e.payableMicro)} goes out with the next payout`;
    case "below_threshold":
      return `${usd(e.neededMicro)} more to reach the ${usd(e.thresholdMicro)} payout threshold`;
    case "no_address":
      return "set a payout address to be paid";
    case "address_hold":
      return `the payout address changed less than 48 h ago: payouts wait until ${
        e.addressHoldUntil ?? "the hold ends"
      }`;
    case "suspended":
      return "payouts to this operator are suspended";
    case "in_flight":
      return "a payout is on its way";
    case "unresolved":
      return "the last payout's outcome is not known yet; it is being checked";
    case "retrying":
      return "the last payout failed and is being tried again";
    default:
      return String(e.nextPayout);
  }
}

/**
 * The lines of `svc earnings`: what is on hold summed by the day it becomes payable.
 */
export function earningsLines(e: Earnings): string {
  const byDay = new Map<string, number>();
  for (const h of e.onHold ?? []) byDay.set(day(h.payableFrom), (byDay.get(day(h.payableFrom)) ?? 0) + h.micro);
  return [
    `payable   ${usd(e.payableMicro)}`,
    `on hold   ${usd(e.onHoldMicro)} (7-day dispute window)`,
    ...[...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([d, micro]) => `  ${usd(micro)} payable from ${d}`),
    `disputed  ${usd(e.disputedMicro)}`,
    `unpaid    ${usd(e.balanceMicro)} · paid ${usd(e.paidMicro)}`,
    `next: ${nextSentence(e)}`,
  ].join("\n") + "\n";
}

function price(p: string | number | null | undefined): string {
  if (p === null || p === undefined || p === "" || p === 0) return "free";
  return typeof p === "number" ? `$${p.toFixed(2)}` : p;
}

/**
 * The lines of `svc listings`: a line a listing (a unit's revision being
 * screened or refused below it), then `page P of N · T listing(s)`.
 */
export function listingLines(l: Listings): string {
  const lines: string[] = [];
  for (const row of l.listings) {
    if ("slug" in row) {
      const d = row as DatasetListing;
      lines.push(`dataset  ${d.slug}  ${d.status}  ${d.access} · ${d.visibility}  ${price(d.price)}`);
      continue;
    }
    const u = row as UnitListing;
    lines.push(
      `unit     ${u.id}  ${u.status}  ${price(u.price)}  ${u.sales} sale(s)  ${u.versions} version(s)  ${u.agent}` +
        (u.yours ? " (yours)" : ""),
    );
    if (u.pending) lines.push(`           pending v${u.pending.version} ${u.pending.id} (${u.pending.status})`);
    if (u.rejection) lines.push(`           rejected v${u.rejection.version}: ${u.rejection.reason}`);
  }
  lines.push(
    `page ${l.page} of ${l.pages} · ${l.total} listing(s) (${l.units} unit(s), ${l.datasets} dataset(s))`,
  );
  return lines.join("\n") + "\n";
}

async function simple(
  args: string[],
  name: string,
  help: string,
  fetch: (client: ReturnType<typeof originClient>) => Promise<unknown>,
  lines: (answer: never) => string,
): Promise<number> {
  const { values, positionals } = commandArgs(args, ORIGIN_FLAGS, name);
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`svc ${name} takes no arguments`);
  const answer = await fetch(originClient(values));
  if (values.json) await printJson(answer);
  else await writeOut(lines(answer as never));
  return 0;
}

/**
 * Runs `svc quota` with `args`; resolves with the exit code.
 */
export function quotaCommand(args: string[]): Promise<number> {
  return simple(args, "quota", QUOTA_HELP, (c) => c.account.quota(), quotaLines);
}

/**
 * Runs `svc earnings` with `args`; resolves with the exit code.
 */
export function earningsCommand(args: string[]): Promise<number> {
  return simple(args, "earnings", EARNINGS_HELP, (c) => c.account.earnings(), earningsLines);
}

/**
 * Runs `svc listings` with `args`; resolves with the exit code.
 */
export async function listingsCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...ORIGIN_FLAGS,
    kind: { type: "string" },
    page: { type: "string" },
  }, "listings");
  if (values.help) {
    process.stdout.write(LISTINGS_HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError("svc listings takes at most one QUERY (quote several words)");
  const kind = choice("--kind", values.kind, ["unit", "dataset"] as const);
  const page = intFlag("page", values.page, 1);
  const answer = await originClient(values).account.listings({ q: positionals[0], kind, page });
  if (values.json) await printJson(answer);
  else await writeOut(listingLines(answer));
  return 0;
}
