/**
 * `svc create SLUG --title T --readme TEXT|--readme-file F --schema @file [--license L]
 * [--tags a b ...] [--visibility public|private] [--base-url URL] [--json]`:
 * a project on a node (or the origin).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import process from "node:process";
import { Client } from "../client/mod.ts";
import { isSlug, newProjectProblems, notASlug } from "../wire/mod.ts";
import { endpointFrom } from "./endpoint.ts";
import { commandArgs } from "./args.ts";
import { fileError, UsageError } from "../errors/mod.ts";

/** The help text of `svc create`. */
export const CREATE_HELP =
  `Usage: svc create SLUG --title TITLE --readme TEXT|--readme-file FILE --schema @FILE [options]

Create a project on a node (a local project that takes contributions).

Options:
  --title TITLE          4-140 characters
  --readme TEXT          the README, 20-20000 characters
  --readme-file FILE     the README read from FILE (give exactly one of
                         --readme and --readme-file)
  --schema @FILE|JSON    {"fields": [{"name", "type", "required"?}], "allowExtra"?}
                         or just the list of fields; types: string, integer,
                         number, boolean; every field is required unless it
                         says "required": false
  --license LICENSE      any string (default: platform-standard)
  --tags a b ...         up to 8 tags (or --tags a,b), up to the next option
  --visibility V         public or private (default: private)
  --base-url URL         the node (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY          agent key or node token (default: SVC_API_KEY, SVC_NODE_TOKEN)
  --json                 print the answer as JSON
  -h, --help             show this help
`;

const FLAGS: Record<string, string> = {
  title: "--title",
  readme: "the README",
  schemaDef: "--schema",
  license: "--license",
  tags: "--tags",
  visibility: "--visibility",
};

/**
 * A new project's check in the command line's words: `body/title ...` is
 * `--title ...`, `body/schemaDef/fields/0/type ...` is `--schema: field 1's
 * "type" ...`.
 */
function flagWording(message: string): string {
  const m = /^body\/(\w+)(?:\/(\S+))?(:? .*)$/s.exec(message);
  if (!m || !FLAGS[m[1]]) return message;
  const [, key, path, rest] = m;
  if (path === undefined) return `${FLAGS[key]}${rest}`;
  const field = /^fields\/(\d+)(?:\/(\w+))?$/.exec(path);
  if (!field) return `${FLAGS[key]}: ${path}${rest}`;
  const which = `field ${Number(field[1]) + 1}`;
  return `${FLAGS[key]}: ${which}${field[2] ? `'s "${field[2]}"` : ""}${rest}`;
}

async function readSchema(value: string): Promise<unknown> {
  const text = value.startsWith("@")
    ? await readFile(value.slice(1), "utf8").catch((e) => {
      throw fileError("read the schema file", value.slice(1), e);
    })
    : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError("--schema must be JSON (or @FILE holding JSON)");
  }
  return Array.isArray(parsed) ? { fields: parsed } : parsed;
}

/** The README given inline or read from a file (one of the two, never both), 20-20000 characters. */
async function readmeFrom(inline: string | undefined, file: string | undefined): Promise<string> {
  if (inline !== undefined && file !== undefined) throw new UsageError("give --readme or --readme-file, not both");
  const readme = file === undefined ? inline! : await readFile(file, "utf8").catch((e) => {
    throw fileError("read", file, e);
  });
  const length = [...readme].length;
  if (length < 20 || length > 20_000) {
    const flag = file === undefined ? "--readme" : `--readme-file (${file})`;
    throw new UsageError(`the README must be 20-20000 characters; ${flag} holds ${length}`);
  }
  return readme;
}

/** The flags of `svc create` that make the request. */
interface CreateFlags {
  title?: string;
  readme?: string;
  "readme-file"?: string;
  schema?: string;
  license?: string;
  tags?: string;
  visibility?: string;
}

/** A problem of `problems` unless an earlier one already told of the same field (`key` of the request). */
function notYetTold(told: Set<string>, problems: string[], key: string, problem: string): void {
  if (!told.has(key)) problems.push(problem);
  told.add(key);
}

/**
 * The creation request of `slug` from `flags`, checked as the origin checks
 * it: every problem at once (a `UsageError` listing them), not one a try.
 */
async function creationRequest(slug: string, flags: CreateFlags): Promise<Record<string, unknown>> {
  const problems: string[] = [];
  const told = new Set<string>();
  if (!isSlug(slug)) notYetTold(told, problems, "slug", notASlug(slug));
  if (!flags.title) notYetTold(told, problems, "title", "--title is missing (4-140 characters)");
  const request: Record<string, unknown> = { slug, title: flags.title ?? "" };
  if (flags.readme === undefined && flags["readme-file"] === undefined) {
    notYetTold(told, problems, "readme", "--readme TEXT or --readme-file FILE is missing (20-20000 characters)");
  } else {
    request.readme = await readmeFrom(flags.readme, flags["readme-file"]).catch((e) => {
      if (!(e instanceof UsageError)) throw e;
      notYetTold(told, problems, "readme", e.message);
      return "";
    });
  }
  if (!flags.schema) notYetTold(told, problems, "schemaDef", "--schema is missing (@FILE or JSON)");
  else {
    request.schemaDef = await readSchema(flags.schema).catch((e) => {
      if (!(e instanceof UsageError)) throw e;
      notYetTold(told, problems, "schemaDef", e.message);
      return { fields: [] };
    });
  }
  if (flags.license !== undefined) request.license = flags.license;
  if (flags.tags !== undefined) request.tags = flags.tags.split(",").map((t) => t.trim()).filter(Boolean);
  if (flags.visibility !== undefined) request.visibility = flags.visibility;
  for (const problem of newProjectProblems(request)) {
    const key = /^body\/(\w+)/.exec(problem)?.[1] ?? "";
    if (!told.has(key)) problems.push(flagWording(problem));
  }
  if (problems.length === 1) throw new UsageError(problems[0]);
  if (problems.length > 1) throw new UsageError(`svc create: ${problems.length} problems:\n  ${problems.join("\n  ")}`);
  return request;
}

/**
 * `args` with the words after `--tags` up to the next option gathered into
 * one comma-separated value, so that `--tags a b` and `--tags a,b` both give
 * the tags a and b, as the reference CLI takes them.
 *
 * @example
 * ```ts
 * import { gatherTags } from "./create.ts";
 * gatherTags(["notes", "--tags", "travel", "food", "--title", "T"]); // ["notes", "--tags", "travel,food", "--title", "T"]
 * ```
 */
export function gatherTags(args: string[]): string[] {
  const at = args.indexOf("--tags");
  if (at < 0) return args;
  let end = at + 1;
  while (end < args.length && !args[end].startsWith("-")) end++;
  if (end === at + 1) return args;
  return [...args.slice(0, at), "--tags", args.slice(at + 1, end).join(","), ...args.slice(end)];
}

/**
 * Runs `svc create` with `args`; resolves with the exit code.
 */
export async function createCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(gatherTags(args), {
    title: { type: "string" },
    readme: { type: "string" },
    "readme-file": { type: "string" },
    schema: { type: "string" },
    license: { type: "string" },
    tags: { type: "string" },
    visibility: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }, "create");
  if (values.help) {
    process.stdout.write(CREATE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc create takes one project slug");
  const request = await creationRequest(positionals[0], values);
  const endpoint = endpointFrom(values, process.env);
  const body = await new Client({ ...endpoint }).create(request);
  if (values.json) process.stdout.write(JSON.stringify(body) + "\n");
  else {
    const b = body as { slug: string; visibility: string; local?: boolean };
    const access = b.local
      ? `this node's own project: whoever may read the node reads it; ${b.visibility} on the origin once promoted`
      : b.visibility;
    process.stdout.write(`created ${b.slug} (${access}) on ${endpoint.baseUrl}\n`);
  }
  return 0;
}
