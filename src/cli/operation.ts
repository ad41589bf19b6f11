/**
 * A command drawn from an operation of the catalog, for the operations
 * whose command needs nothing of its own: the path's parameters as
 * arguments, the other fields as `--flags` (integers held to their bounds),
 * the help made from the catalog's words, and the answer printed as a table
 * of its list (with how to ask for the next page on stderr) or, with
 * `--json`, as the API gives it.
 *
 * @module
 */
import process from "node:process";
import { aboutOf, type CommandEntry, type Fields, mayLeaveOut, type Operation, pathParams } from "../catalog/mod.ts";
import { Client } from "../client/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { commandArgs, type OptionsConfig } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { exactJson, writeOut } from "./formats.ts";
import { renderTable } from "./table.ts";

/** The flags a command drawn from `op` takes: one per field of its query string or body. */
function flagFields(op: Operation): [string, Fields[string]][] {
  const params = new Set(pathParams(op.path));
  return Object.entries(op.input as Fields).filter(([name, f]) =>
    !params.has(name) && ["integer", "string", "boolean"].includes(f.type)
  );
}

const CLIENT_OPTIONS = `  --json           print the answer as JSON, as the API gives it
  --base-url URL   the node (default: SVC_BASE_URL or http://127.0.0.1:8686)
  --api-key KEY    the node token (default: SVC_API_KEY, SVC_NODE_TOKEN)
  -h, --help       show this help`;

/**
 * The help of the command drawn from `op`.
 *
 * @example
 * ```ts
 * import { CATALOG } from "../catalog/mod.ts";
 * import { operationHelp } from "./operation.ts";
 * operationHelp(CATALOG.project_detail, { name: "project", about: "", group: "datasets" }).split("\n")[0];
 * // "Usage: svc project SLUG [options]"
 * ```
 */
export function operationHelp(op: Operation, command: CommandEntry): string {
  const args = pathParams(op.path).map((p) => p.toUpperCase()).join(" ");
  const flags = flagFields(op).map(([name, f]) => {
    const flag = `  --${name}${f.type === "boolean" ? "" : f.type === "integer" ? " N" : " TEXT"}`;
    return `${flag.padEnd(19)}${aboutOf(f)}`;
  });
  return `Usage: svc ${command.name}${args ? ` ${args}` : ""} [options]

${op.about} (${op.method} ${op.path})

Options:
${[...flags, CLIENT_OPTIONS].join("\n")}
`;
}

function flagValue(name: string, field: Fields[string], raw: string | boolean | undefined): unknown {
  if (raw === undefined) return undefined;
  if (field.type !== "integer") return raw;
  const { min, max } = field;
  const value = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= (max ?? Number.MAX_SAFE_INTEGER))) {
    const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${range}, not ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The answer as a table of its list, and a note on stderr of how to ask for the next page. */
async function printTable(op: Operation, command: CommandEntry, answer: Record<string, unknown>, args: string[]) {
  const table = command.table!;
  const rows = (answer[table.rows] ?? []) as Record<string, unknown>[];
  await writeOut(renderTable([...table.columns], rows.map((r) => table.columns.map((c) => r[c] ?? ""))));
  const next = answer.next;
  if (table.next && next !== null && next !== undefined) {
    process.stderr.write(`more: svc ${command.name} ${args.join(" ")} --${table.next} ${next}\n`);
  } else if (rows.length === 0) {
    process.stderr.write(`no ${table.rows} (${op.method} ${op.path})\n`);
  }
}

/**
 * Runs the command drawn from `op` with `args`; resolves with the exit code.
 */
export async function operationCommand(op: Operation, args: string[]): Promise<number> {
  const command = op.command!;
  const fields = flagFields(op);
  const options: OptionsConfig = {
    json: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  };
  for (const [name, f] of fields) options[name] = { type: f.type === "boolean" ? "boolean" : "string" };
  const { values, positionals } = commandArgs(args, options, command.name);
  if (values.help) {
    process.stdout.write(operationHelp(op, command));
    return 0;
  }
  const params = pathParams(op.path);
  if (positionals.length !== params.length) {
    throw new UsageError(`svc ${command.name} takes ${params.map((p) => p.toUpperCase()).join(" ") || "no argument"}`);
  }
  const input: Record<string, unknown> = Object.fromEntries(params.map((p, i) => [p, positionals[i]]));
  for (const [name, f] of fields) {
    const value = flagValue(name, f, values[name] as string | boolean | undefined);
    if (value === undefined && !mayLeaveOut(f)) throw new UsageError(`svc ${command.name} needs --${name}`);
    input[name] = value;
  }
  const client = new Client({ ...endpointFrom(values as Record<string, string | undefined>, process.env) });
  const answer = await client.call(op.name as never, input as never) as Record<string, unknown>;
  if (values.json || !command.table) await writeOut(exactJson(answer) + "\n");
  else await printTable(op, command, answer, positionals);
  return 0;
}
