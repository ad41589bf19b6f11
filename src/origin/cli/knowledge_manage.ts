/**
 * `svc status ID [--wait]`, `svc retire ID` and `svc price TARGET
 * [PRICE|0|default] [--trial|--no-trial]`: your units' validation, their
 * retirement, and a unit's or a paid dataset's price (origin-wire 3.2,
 * 3.4, 3.5).
 *
 * @module
 */
import { isSlug, SLUG_RULE } from "@svc/cli/wire";
import type { PriceInput, PriceState, UnitStatus } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { CliError, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { CLIENT_FLAGS, CLIENT_HELP, clientFrom, helped, printJson } from "./knowledge_common.ts";

/** A unit id: a lowercase UUID (anything else `svc price` takes for a dataset slug). */
export const UNIT_ID_PATTERN: RegExp = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The help text of `svc status`. */
export const STATUS_HELP = `Usage: svc status ID [options]

Show one of your units: its status and id and title, then one line per
validation stage (stage, verdict, score, and the model or local).

Options:
  --wait                 wait until it is published or rejected (up to 15 minutes)
${CLIENT_HELP}
`;

/** The help text of `svc retire`. */
export const RETIRE_HELP = `Usage: svc retire ID [options]

Retire one of your units: every version (any version's id does), for good.
A revision still in validation is not published; readers who had it keep it.

Options:
${CLIENT_HELP}
`;

/** The help text of `svc price`. */
export const PRICE_HELP = `Usage: svc price TARGET [PRICE|0|default] [options]

Set the price of one of your units (TARGET a unit id) or of a paid dataset
you maintain (TARGET its slug): PRICE in dollars and cents (0.25), 0 for
free, default for the platform's. A price applies to every version of a
unit, and changes at most once a day; the trial flag changes any time.

Options:
  --trial                allow trial sales
  --no-trial             no trial sales
${CLIENT_HELP}
`;

/**
 * What `svc status` prints: `<status>  <id>  <title>`, then a line per
 * validation.
 *
 * @example
 * ```ts
 * import { statusLines } from "./knowledge_manage.ts";
 * statusLines({
 *   id: "u1", title: "DNS TTLs", category: "infra", license: "CC0-1.0", status: "published", createdAt: "",
 *   validations: [{ stage: "quality", verdict: "pass", score: 8, detail: null, model: "judge-1", createdAt: "" }],
 * }); // "published  u1  DNS TTLs\n  quality  pass  score 8  judge-1\n"
 * ```
 */
export function statusLines(unit: UnitStatus): string {
  const lines = [`${unit.status}  ${unit.id}  ${unit.title}`];
  for (const v of unit.validations ?? []) {
    lines.push(`  ${v.stage}  ${v.verdict}  score ${v.score ?? "—"}  ${v.model || "local"}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * The line of `svc price`: `<target>  <price>[ (default)][  trial sales
 * on][  (price unchanged)]`.
 *
 * @example
 * ```ts
 * import { priceLine } from "./knowledge_manage.ts";
 * priceLine("cities", { price: "$0.01", priceMicro: 10000, default: true, trialSale: true, changed: false });
 * // "cities  $0.01 (default)  trial sales on  (price unchanged)"
 * ```
 */
export function priceLine(target: string, state: Partial<PriceState>): string {
  return `${target}  ${state.price}${state.default ? " (default)" : ""}${state.trialSale ? "  trial sales on" : ""}${
    state.changed === false ? "  (price unchanged)" : ""
  }`;
}

/**
 * Runs `svc status` with `args`; resolves with the exit code.
 */
export async function statusCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, { ...CLIENT_FLAGS, wait: { type: "boolean" } }, "status");
  if (helped(values, STATUS_HELP)) return 0;
  if (positionals.length !== 1) throw new UsageError("svc status takes one unit id");
  const client = clientFrom(values);
  const unit = values.wait
    ? await client.knowledge.wait(positionals[0])
    : await client.knowledge.status(positionals[0]);
  if (values.json) await printJson(unit);
  else await writeOut(statusLines(unit));
  return 0;
}

/**
 * Runs `svc retire` with `args`; resolves with the exit code.
 */
export async function retireCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, CLIENT_FLAGS, "retire");
  if (helped(values, RETIRE_HELP)) return 0;
  if (positionals.length !== 1) throw new UsageError("svc retire takes one unit id");
  const retired = await clientFrom(values).knowledge.retire(positionals[0]);
  if (values.json) await printJson(retired);
  else {
    await writeOut(
      `${retired.status}  ${retired.groupId ?? retired.id}  ${retired.versions} version(s)  ` +
        "(readers who had it keep it)\n",
    );
  }
  return 0;
}

/**
 * Runs `svc price` with `args`; resolves with the exit code.
 */
export async function priceCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    trial: { type: "boolean" },
    "no-trial": { type: "boolean" },
  }, "price");
  if (helped(values, PRICE_HELP)) return 0;
  if (positionals.length < 1 || positionals.length > 2) {
    throw new UsageError("svc price takes TARGET [PRICE|0|default]");
  }
  const [target, given] = positionals;
  const isUnit = UNIT_ID_PATTERN.test(target);
  if (!isUnit && !isSlug(target)) {
    throw new UsageError(`${JSON.stringify(target)} is neither a unit id nor a dataset slug: a slug is ${SLUG_RULE}`);
  }
  if (values.trial && values["no-trial"]) throw new UsageError("--trial and --no-trial cannot go together");
  const trialSale = values.trial ? true : values["no-trial"] ? false : undefined;
  const price: PriceInput | undefined = given === undefined ? undefined : given === "default" ? null : given;
  if (price === undefined && trialSale === undefined) {
    throw new CliError(
      "nothing to change: give a price (0 for free, default for the platform's), --trial or --no-trial",
    );
  }
  const client = clientFrom(values);
  const change = { ...(price === undefined ? {} : { price }), ...(trialSale === undefined ? {} : { trialSale }) };
  const answer = isUnit ? await client.knowledge.setPrice(target, change) : await client.update(target, change);
  if (values.json) await printJson(answer);
  else await writeOut(priceLine(target, answer) + "\n");
  return 0;
}
