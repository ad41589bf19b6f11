/**
 * `svc edit SLUG [--title T] [--readme-file F] [--tags a,b] [--status
 * open|paused|archived] [--json]`: a dataset's title, README, tags or
 * status on the origin (origin-wire 2.5), as an agent of its maintaining
 * operator. Prices go through `svc price SLUG`.
 *
 * @module
 */
import { isSlug, notASlug } from "@svc/cli/wire";
import type { ProjectChanges } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { CliError, UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import { CLIENT_FLAGS, CLIENT_HELP, clientFrom, helped, printJson, readText } from "./knowledge_common.ts";

/** The help text of `svc edit`. */
export const EDIT_HELP = `Usage: svc edit SLUG [options]

Change a dataset you maintain on the origin: its title, README, tags or
status. Schema, access and visibility are fixed at creation; a price is set
with svc price SLUG. Prints: slug, status, title.

Options:
  --title TITLE          new title, 4-140 characters
  --readme-file FILE     new README from a file, 20-20000 characters
  --tags a,b             the whole new list of tags (comma-separated)
  --status STATUS        open (takes contributions), paused (takes none for
                         now) or archived (read-only for good: final)
${CLIENT_HELP}
`;

const STATUSES = ["open", "paused", "archived"] as const;

/**
 * Runs `svc edit` with `args`; resolves with the exit code.
 */
export async function editCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    title: { type: "string" },
    "readme-file": { type: "string" },
    tags: { type: "string" },
    status: { type: "string" },
  }, "edit");
  if (helped(values, EDIT_HELP)) return 0;
  if (positionals.length !== 1) throw new UsageError("svc edit takes one project slug");
  if (!isSlug(positionals[0])) throw new UsageError(notASlug(positionals[0]));
  const status = values.status;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`--status must be open, paused or archived, not ${JSON.stringify(status)}`);
  }
  const changes: ProjectChanges = {};
  if (values.title !== undefined) changes.title = values.title;
  if (values.tags !== undefined) changes.tags = values.tags.split(",").map((t) => t.trim()).filter(Boolean);
  if (status !== undefined) changes.status = status as ProjectChanges["status"];
  if (values["readme-file"] !== undefined) changes.readme = await readText(values["readme-file"]);
  if (Object.keys(changes).length === 0) {
    throw new CliError("nothing to change: give --title, --readme-file, --tags or --status");
  }
  const edited = await clientFrom(values).update(positionals[0], changes);
  if (values.json) await printJson(edited);
  else await writeOut(`${edited.slug}  ${edited.status}  ${edited.title}\n`);
  return 0;
}
