/**
 * `svc submit` and `svc revise ID`: a new knowledge unit, or a new version
 * of one of yours (origin-wire 3.1, 3.3), with `--wait` to block until the
 * origin's validation has published or rejected it.
 *
 * @module
 */
import type { OriginClient } from "../client/mod.ts";
import type { UnitStatus } from "../wire/mod.ts";
import { commandArgs } from "@svc/cli/command";
import { UsageError } from "@svc/cli/errors";
import { writeOut } from "@svc/cli/command";
import {
  CLIENT_FLAGS,
  CLIENT_HELP,
  clientFrom,
  helped,
  licenseFlag,
  printJson,
  provenanceFlags,
  sourceFlag,
  UNIT_INPUT_FLAGS,
  unitText,
} from "./knowledge_common.ts";

const TEXT_HELP = `  --file FILE            the unit's text from a file (- reads stdin)
  --body TEXT            the unit's text (give --file or --body)`;

const PROVENANCE_HELP = `  --provenance JSON|@FILE  where it comes from: {"kind": "own_measurement" |
                         "derived_public" | "derived_private", "sources": [{"url"
                         or "title", "access": "public" | "subscription" |
                         "internal", "accessedAt"?}], "termsChecked": true}
  --measured             same as --provenance '{"kind":"own_measurement"}'
  --wait                 wait until the origin published or rejected it`;

/** The help text of `svc submit`. */
export const SUBMIT_HELP =
  `Usage: svc submit --title TITLE --category CATEGORY --source TEXT (--file FILE | --body TEXT) [options]

Submit a knowledge unit to the origin. The origin validates it afterwards
(svc status ID); it is sold at the platform's default price until you set
another (svc price ID PRICE). Prints: status, id, title.

Options:
  --title TITLE          at most 200 characters (required)
  --category CATEGORY    kebab-case, e.g. infra-measurement (required)
${TEXT_HELP}
  --source TEXT          how you came to know it, 4-2000 characters (required)
  --license LICENSE      platform-standard (default), CC0-1.0, CC-BY-4.0,
                         CC-BY-SA-4.0, ODbL-1.0, PDDL-1.0 or CDLA-Permissive-2.0
                         (any letter case)
${PROVENANCE_HELP}
${CLIENT_HELP}
`;

/** The help text of `svc revise`. */
export const REVISE_HELP = `Usage: svc revise ID (--file FILE | --body TEXT) [options]

Submit a new version of one of your units. What is not given carries over
from the version before, and so does the price; the origin validates it
like a new unit, and only one revision can wait for validation at a time.
Prints: status, id, version.

Options:
${TEXT_HELP}
  --title TITLE          new title
  --category CATEGORY    new category
  --source TEXT          new source declaration, 4-2000 characters
${PROVENANCE_HELP}
${CLIENT_HELP}
`;

/** Waits for `id`'s validation when `--wait` was given; else null. */
async function waited(client: OriginClient, id: string, wait: boolean | undefined): Promise<UnitStatus | null> {
  return wait ? await client.knowledge.wait(id) : null;
}

/**
 * Runs `svc submit` with `args`; resolves with the exit code.
 */
export async function submitCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    ...UNIT_INPUT_FLAGS,
    title: { type: "string" },
    category: { type: "string" },
    license: { type: "string" },
  }, "submit");
  if (helped(values, SUBMIT_HELP)) return 0;
  if (positionals.length > 0) throw new UsageError("svc submit takes no positional arguments");
  if (values.title === undefined || values.category === undefined || values.source === undefined) {
    throw new UsageError("svc submit needs --title, --category and --source");
  }
  const sourceDeclaration = sourceFlag(values.source);
  const license = values.license === undefined ? undefined : licenseFlag(values.license);
  const provenance = await provenanceFlags(values);
  const body = await unitText(values);
  const client = clientFrom(values);
  const unit = await client.knowledge.submit({
    title: values.title,
    body,
    category: values.category,
    sourceDeclaration,
    license,
    provenance,
  });
  const final = await waited(client, unit.id, values.wait);
  if (values.json) await printJson(final ?? unit);
  else await writeOut(`${final?.status ?? unit.status}  ${unit.id}  ${final?.title ?? unit.title}\n`);
  return 0;
}

/**
 * Runs `svc revise` with `args`; resolves with the exit code.
 */
export async function reviseCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    ...UNIT_INPUT_FLAGS,
    title: { type: "string" },
    category: { type: "string" },
  }, "revise");
  if (helped(values, REVISE_HELP)) return 0;
  if (positionals.length !== 1) throw new UsageError("svc revise takes one unit id");
  const sourceDeclaration = values.source === undefined ? undefined : sourceFlag(values.source);
  const provenance = await provenanceFlags(values);
  const body = await unitText(values);
  const client = clientFrom(values);
  const revised = await client.knowledge.revise(positionals[0], {
    body,
    title: values.title,
    category: values.category,
    sourceDeclaration,
    provenance,
  });
  const final = await waited(client, revised.id, values.wait);
  if (values.json) await printJson(final ?? revised);
  else await writeOut(`${final?.status ?? revised.status}  ${revised.id}  version ${revised.version}\n`);
  return 0;
}
