/**
 * `svc query SLUG[@N] "SQL"|- [--file F] [--format table|jsonl|csv]
 * [--limit N] [--out|--store DIR] [--json]`: SQL over a version in a local store,
 * on the node's own engine (the request goes through the same handler a
 * node serves), or with `--remote` on a node or the origin.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import process from "node:process";
import { Client } from "../client/mod.ts";
import { queryLocal } from "../local/mod.ts";
import { DEFAULT_STORE } from "../store/mod.ts";
import { WIRE_LIMITS } from "../wire/mod.ts";
import { commandArgs, eitherFlag, intFlag, projectAt, versionFrom } from "./args.ts";
import { endpointFrom } from "./endpoint.ts";
import { fileError, UsageError } from "../errors/mod.ts";
import { csv, jsonLines, writeOut } from "./formats.ts";
import { plural } from "./progress.ts";
import { renderTable } from "./table.ts";
import { requireLocalProject } from "./local_store.ts";

/** The help text of `svc query`. */
export const QUERY_HELP = `Usage: svc query SLUG[@VERSION] "SQL" [options]
       svc query SLUG[@VERSION] --file FILE [options]
       svc query SLUG[@VERSION] - [options]          (the SQL from stdin)

Run one read statement over a version of a project in a local store; the
version's records are the table \`records\`.

Options:
  --file FILE     read the statement from FILE
  --format F      table (default), jsonl (one JSON object a row) or csv
                  (RFC 4180, a header line first)
  --version N     version to query (default: the newest whole one)
  --limit N       rows to return (default: ${WIRE_LIMITS.rows.default}; 0 for all rows of a local
                  query; a remote answer holds at most ${WIRE_LIMITS.rows.max})
  --out DIR       store directory (default: ${DEFAULT_STORE}); --store DIR is
                  the same option
  --remote        ask a node or the origin instead (--base-url, --api-key;
                  default SVC_BASE_URL, SVC_API_KEY)
  --json          print the answer as JSON, as the API gives it
  -h, --help      show this help
`;

/** Longest statement a node takes, in characters (code points). */
const MAX_SQL_CHARS = WIRE_LIMITS.sqlChars;

/** Most rows a remote answer holds (the server's cap). */
const REMOTE_ROWS = WIRE_LIMITS.rows.max;

async function statement(positional: string | undefined, file: string | undefined): Promise<string> {
  if (file !== undefined) {
    if (positional !== undefined) throw new UsageError("give the SQL or --file FILE, not both");
    return await readFile(file, "utf8").catch((e) => {
      throw fileError("read", file, e);
    });
  }
  if (positional === undefined) {
    throw new UsageError('svc query takes a project and one SQL statement: svc query SLUG "SQL" (or --file F, or -)');
  }
  if (positional !== "-") return positional;
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return new TextDecoder().decode(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}

/**
 * Runs `svc query` with `args`; resolves with the exit code.
 */
export async function queryCommand(args: string[]): Promise<number> {
  const { values, positionals } = commandArgs(args, {
    file: { type: "string" },
    format: { type: "string" },
    version: { type: "string" },
    limit: { type: "string" },
    out: { type: "string" },
    store: { type: "string" },
    json: { type: "boolean" },
    remote: { type: "boolean" },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "query");
  if (values.help) {
    process.stdout.write(QUERY_HELP);
    return 0;
  }
  if (positionals.length < 1 || positionals.length > 2) {
    throw new UsageError('svc query takes a project and one SQL statement: svc query SLUG "SQL" (or --file F, or -)');
  }
  const format = values.format ?? "table";
  if (!["table", "jsonl", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, jsonl or csv, not ${JSON.stringify(format)}`);
  }
  if (values.json && values.format !== undefined) throw new UsageError("give --json or --format, not both");
  const { slug, version: at } = projectAt(positionals[0]);
  const version = versionFrom(at, values.version) ?? undefined;
  const asked = intFlag("limit", values.limit, 0);
  const store = eitherFlag(["out", values.out], ["store", values.store]) ?? DEFAULT_STORE;
  const sql = await statement(positionals[1], values.file);
  if (sql.trim() === "") throw new UsageError("the SQL statement is empty");
  const characters = [...sql].length;
  if (characters > MAX_SQL_CHARS) {
    throw new UsageError(`the SQL statement is ${characters} characters; at most ${MAX_SQL_CHARS} are taken`);
  }
  if (!values.remote) await requireLocalProject(store, slug, true);
  // A remote answer holds at most REMOTE_ROWS rows: 0 (all) or more asks for those.
  const limit = values.remote && asked !== undefined && (asked === 0 || asked > REMOTE_ROWS) ? REMOTE_ROWS : asked;
  const body = values.remote
    ? await new Client({ ...endpointFrom(values, process.env) }).query(slug, sql, { version, limit })
    : await queryLocal(store, slug, { sql, version, limit });
  if (values.json) {
    await writeOut(JSON.stringify(body) + "\n");
    return 0;
  }
  const text = format === "csv"
    ? csv(body.columns, body.rows)
    : format === "jsonl"
    ? jsonLines(body.columns, body.rows)
    : renderTable(body.columns, body.rows);
  await writeOut(text);
  const more = !body.truncated
    ? ""
    : values.remote && limit === REMOTE_ROWS
    ? `, more rows exist (a remote answer holds at most ${REMOTE_ROWS})`
    : values.remote
    ? `, more rows exist (raise --limit, up to ${REMOTE_ROWS})`
    : ", more rows exist (raise --limit, or --limit 0 for all)";
  process.stderr.write(`${plural(body.count, "row")} from ${slug} v${body.version} in ${body.ms} ms${more}\n`);
  return 0;
}
