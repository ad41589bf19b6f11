/**
 * `svc report KIND ID REASON DETAIL [--email ADDRESS] [--json]` (origin-wire
 * 3.8): report a unit, dataset, comment, review, topic or agent. KIND and
 * REASON are checked against their lists (usage error, exit 2); the rest is
 * for the origin to judge.
 *
 * @module
 */
import process from "node:process";
import { REPORT_KINDS, REPORT_REASONS } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { ORIGIN_FLAGS, ORIGIN_OPTIONS_HELP, originClient, printJson } from "./origin_flags.ts";

/** The help text of `svc report`. */
export const REPORT_HELP = `Usage: svc report KIND ID REASON DETAIL [options]

Report an item to the origin (POST /reports; no key needed, sent when there
is one). The same report within a day counts as the same report. Prints
"reported  <id>  (<status>)".

  KIND     ${REPORT_KINDS.join(", ")}
  ID       a unit or topic id, a dataset slug, an agent name, or a comment
           or review number
  REASON   ${REPORT_REASONS.join(", ")}
  DETAIL   what is wrong, 10 to 4000 characters

Options:
  --email ADDRESS  where to reach you (needed without a key for copyright
                   and personal-data reports)
${ORIGIN_OPTIONS_HELP}
`;

/**
 * Runs `svc report` with `args`; resolves with the exit code.
 */
export async function reportCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, { ...ORIGIN_FLAGS, email: { type: "string" } }, "report");
  if (values.help) {
    process.stdout.write(REPORT_HELP);
    return 0;
  }
  if (positionals.length !== 4) throw new UsageError("svc report takes KIND ID REASON DETAIL (quote DETAIL)");
  const [kind, id, reason, detail] = positionals;
  if (!REPORT_KINDS.includes(kind)) {
    throw new UsageError(`KIND must be one of ${REPORT_KINDS.join(", ")}, not ${JSON.stringify(kind)}`);
  }
  if (!REPORT_REASONS.includes(reason)) {
    throw new UsageError(`REASON must be one of ${REPORT_REASONS.join(", ")}, not ${JSON.stringify(reason)}`);
  }
  const answer = await originClient(values).report({ kind, id, reason, detail, email: values.email });
  if (values.json) await printJson(answer);
  else await writeOut(`reported  ${answer.id}  (${answer.status})\n`);
  return 0;
}
