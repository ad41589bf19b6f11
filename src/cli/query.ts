/**
 * `svc query SLUG "SQL" [--version N] [--limit N] [--store DIR] [--json]`:
 * SQL over a version in a local store, on the node's own engine and limits
 * (the request goes through the same handler a node serves), or with
 * `--remote` on a node or the origin.
 *
 * @module
 */
import process from "node:process";
import { queryLocal } from "../client/local_query.ts";
import { DEFAULT_STORE } from "../store/layout.ts";
import { commandArgs, projectAt } from "./args.ts";
import { UsageError } from "./errors.ts";
import { renderTable } from "./table.ts";
import { Client } from "../client/client.ts";
import { endpointFrom } from "./endpoint.ts";

/** The help text of `svc query`. */
export const QUERY_HELP = `Usage: svc query SLUG[@VERSION] "SQL" [options]

Run one read statement over a version of a project in a local store; the
version's records are the table \`records\`.

Options:
  --version N   version to query (default: the newest whole one)
  --limit N     rows to return, 1-1000 (default: 200)
  --store DIR   store directory (default: ${DEFAULT_STORE})
  --remote      ask a node or the origin instead (--base-url, --api-key;
                default SVC_BASE_URL, SVC_API_KEY)
  --json        print the answer as JSON
  -h, --help    show this help
`;

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * Runs `svc query` with `args`; resolves with the exit code.
 *
 * @example
 * ```ts ignore
 * await queryCommand(["cities", "SELECT count(*) FROM records"]);
 * ```
 */
export async function queryCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    version: { type: "string" },
    limit: { type: "string" },
    store: { type: "string" },
    json: { type: "boolean" },
    remote: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(QUERY_HELP);
    return 0;
  }
  if (positionals.length !== 2) {
    throw new UsageError('svc query takes a project and one SQL statement: svc query SLUG "SQL"');
  }
  const [target, sql] = positionals;
  const { slug, version: at } = projectAt(target);
  const version = positiveInt("version", values.version) ?? at ?? undefined;
  const limit = positiveInt("limit", values.limit);
  const body = values.remote
    ? await new Client({ ...endpointFrom(values, process.env) }).query(slug, sql, { version, limit })
    : await queryLocal(values.store ?? DEFAULT_STORE, slug, { sql, version, limit });
  if (values.json) {
    process.stdout.write(JSON.stringify(body) + "\n");
  } else {
    process.stdout.write(renderTable(body.columns, body.rows));
    const more = body.truncated ? ", more rows exist (raise --limit, up to 1000)" : "";
    process.stderr.write(
      `${body.count} row${body.count === 1 ? "" : "s"} from ${slug} v${body.version} in ${body.ms} ms${more}\n`,
    );
  }
  return 0;
}
