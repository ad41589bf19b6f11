/**
 * `svc create SLUG --title T --readme-file F --schema @file [--license L]
 * [--tags a,b] [--visibility public|private] [--base-url URL] [--json]`:
 * a project on a node (or the origin).
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import process from "node:process";
import { Client } from "../client/client.ts";
import { checkNewProject } from "../wire/new_project.ts";
import { endpointFrom } from "./endpoint.ts";
import { commandArgs } from "./args.ts";
import { CliError, UsageError } from "./errors.ts";

/** The help text of `svc create`. */
export const CREATE_HELP = `Usage: svc create SLUG --title TITLE --readme-file FILE --schema @FILE [options]

Create a project on a node (a local project that takes contributions).

Options:
  --title TITLE          4-140 characters
  --readme-file FILE     README text, 20-20000 characters
  --schema @FILE|JSON    {"fields": [{"name", "type", "required"?}], "allowExtra"?}
                         or just the list of fields; types: string, integer,
                         number, boolean
  --license LICENSE      any string (default: platform-standard)
  --tags a,b             up to 8 tags
  --visibility V         public or private (default: private)
  --base-url URL         the node (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY          agent key or node token (default: SVC_API_KEY, SVC_NODE_TOKEN)
  --json                 print the answer as JSON
`;

async function readSchema(value: string): Promise<unknown> {
  const text = value.startsWith("@")
    ? await readFile(value.slice(1), "utf8").catch((e) => {
      throw new CliError(`cannot read the schema file ${value.slice(1)}: ${(e as Error).message}`);
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

/**
 * Runs `svc create` with `args`; resolves with the exit code.
 *
 * @example
 * ```ts ignore
 * await createCommand(["notes", "--title", "Notes", "--readme-file", "README.md", "--schema", "@schema.json"]);
 * ```
 */
export async function createCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    title: { type: "string" },
    "readme-file": { type: "string" },
    schema: { type: "string" },
    license: { type: "string" },
    tags: { type: "string" },
    visibility: { type: "string" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(CREATE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc create takes one project slug");
  if (!values.title || !values["readme-file"] || !values.schema) {
    throw new UsageError("svc create needs --title, --readme-file and --schema");
  }
  const readme = await readFile(values["readme-file"], "utf8").catch((e) => {
    throw new CliError(`cannot read ${values["readme-file"]}: ${(e as Error).message}`);
  });
  const request: Record<string, unknown> = {
    slug: positionals[0],
    title: values.title,
    readme,
    schemaDef: await readSchema(values.schema),
  };
  if (values.license !== undefined) request.license = values.license;
  if (values.tags !== undefined) request.tags = values.tags.split(",").map((t) => t.trim()).filter(Boolean);
  if (values.visibility !== undefined) request.visibility = values.visibility;
  try {
    checkNewProject(request);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const endpoint = endpointFrom(values, process.env);
  const body = await new Client({ ...endpoint }).create(request);
  if (values.json) process.stdout.write(JSON.stringify(body) + "\n");
  else {
    const b = body as { slug: string; visibility: string };
    process.stdout.write(`created ${b.slug} (${b.visibility}) on ${endpoint.baseUrl}\n`);
  }
  return 0;
}
