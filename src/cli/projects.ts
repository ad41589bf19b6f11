/**
 * `svc projects [SLUG] [--json]`: the projects of a node or the origin as a
 * table, or one project's detail; and `svc data SLUG[@N] [--version N]
 * [--limit N] [--offset N] [--json]`: a version's records as JSON lines.
 *
 * @module
 */
import process from "node:process";
import { Client } from "../client/mod.ts";
import { type DataPage, type ProjectDetail, WIRE_LIMITS } from "../wire/mod.ts";
import { commandArgs, intFlag, projectAt } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { UsageError } from "../errors/mod.ts";
import { exactJson, writeOut } from "./formats.ts";
import { plural } from "./progress.ts";
import { renderTable } from "./table.ts";

const CLIENT_OPTIONS = `  --base-url URL   the node or origin (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY    agent key or node token (default: SVC_API_KEY, SVC_NODE_TOKEN)`;

/** The help text of `svc projects`. */
export const PROJECTS_HELP = `Usage: svc projects [SLUG] [options]

Without SLUG, list the projects of a node or the origin as a table; with
SLUG, show that project: license, versions, schema, README.

Options:
  --json           print the answer as JSON, as the API gives it
${CLIENT_OPTIONS}
  -h, --help       show this help
`;

/** The help text of `svc data`. */
export const DATA_HELP = `Usage: svc data SLUG[@VERSION] [options]

Print records of a version as JSON lines (one record a line), read from
GET /projects/SLUG/data a page of at most ${WIRE_LIMITS.page.max} at a time, every page of the
version the first named.

Options:
  --version N      the version (default: the newest)
  --limit N        records to print (default: ${WIRE_LIMITS.page.default}; 0 for all)
  --offset N       records to skip first (default: 0)
  --json           print one JSON object {project, version, count, records}
${CLIENT_OPTIONS}
  -h, --help       show this help
`;

const CLIENT_FLAGS = {
  json: { type: "boolean" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function detailText(p: ProjectDetail): string {
  const fields = p.schemaDef?.fields ?? [];
  const schema = fields.length === 0 ? "none" : fields
    .map((f) => `${f.name} ${f.type}${f.required === false ? " (optional)" : ""}`)
    .join(", ") + (p.schemaDef?.allowExtra ? "; other fields allowed" : "");
  const held = Array.isArray(p.localVersions) ? p.localVersions : null;
  const versions = held === null
    ? `latest ${p.latestVersion}`
    : held.length === 0
    ? "none held yet"
    : `${plural(held.length, "version")} held, newest ${held[0]}`;
  const lines = [
    `${p.slug}: ${p.title}`,
    `  license     ${p.license}`,
    p.local
      ? `  access      this node's own project (takes contributions): whoever may read the node reads it; ` +
        `${p.visibility} on the origin once promoted · ${p.status}`
      : `  visibility  ${p.visibility} on the origin · ${p.status}`,
    `  versions    ${versions}`,
    `  schema      ${schema}`,
  ];
  if (p.tags.length > 0) lines.push(`  tags        ${p.tags.join(", ")}`);
  if (p.readme.trim()) lines.push("", ...p.readme.trimEnd().split("\n").map((l) => `  ${l}`.trimEnd()));
  return lines.join("\n") + "\n";
}

/**
 * Runs `svc projects` with `args`; resolves with the exit code.
 */
export async function projectsCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, CLIENT_FLAGS, "projects");
  if (values.help) {
    process.stdout.write(PROJECTS_HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError("svc projects takes at most one project slug");
  const client = new Client({ ...endpointFrom(values, process.env) });
  if (positionals.length === 1) {
    const { slug, version } = projectAt(positionals[0]);
    if (version !== null) throw new UsageError("svc projects takes a slug without @VERSION");
    const detail = await client.project(slug);
    await writeOut(values.json ? JSON.stringify(detail) + "\n" : detailText(detail));
    return 0;
  }
  const projects = await client.projects();
  if (values.json) {
    await writeOut(JSON.stringify({ projects }) + "\n");
    return 0;
  }
  if (projects.length === 0) {
    process.stderr.write(`no projects on ${client.baseUrl}\n`);
    return 0;
  }
  const rows = projects.map((p) => [
    p.slug,
    p.title,
    p.latestVersion,
    p.records,
    p.license,
    p.local ? "this node's own" : `${p.visibility} on origin`,
  ]);
  await writeOut(renderTable(["slug", "title", "version", "records", "license", "access"], rows));
  return 0;
}

/**
 * Runs `svc data` with `args`; resolves with the exit code.
 */
export async function dataCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    ...CLIENT_FLAGS,
    version: { type: "string" },
    limit: { type: "string" },
    offset: { type: "string" },
  }, "data");
  if (values.help) {
    process.stdout.write(DATA_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("svc data takes one SLUG[@VERSION]");
  const { slug, version: at } = projectAt(positionals[0]);
  let version = intFlag("version", values.version, 1) ?? at ?? undefined;
  const wanted = intFlag("limit", values.limit, 0) ?? WIRE_LIMITS.page.default;
  let offset = intFlag("offset", values.offset, 0) ?? 0;
  const client = new Client({ ...endpointFrom(values, process.env) });
  const records: DataPage["records"] = [];
  let printed = 0;
  let pageVersion = version ?? 0;
  while (wanted === 0 || printed < wanted) {
    const limit = wanted === 0 ? WIRE_LIMITS.page.max : Math.min(WIRE_LIMITS.page.max, wanted - printed);
    const page = await client.data(slug, { version, limit, offset, exactIntegers: true });
    version = pageVersion = page.version;
    if (values.json) records.push(...page.records);
    else if (page.records.length > 0) await writeOut(page.records.map(exactJson).join("\n") + "\n");
    printed += page.records.length;
    offset += page.records.length;
    if (page.count < limit) break;
  }
  if (values.json) await writeOut(exactJson({ project: slug, version: pageVersion, count: printed, records }) + "\n");
  return 0;
}
