/**
 * The `svc` command: global flags, then one command.
 *
 * @module
 */
import process from "node:process";
import { VERSION } from "../version.ts";
import { CliError, UsageError } from "./errors.ts";
import { loadCommand, saveCommand } from "./bundle.ts";
import { contributeCommand } from "./contribute.ts";
import { createCommand } from "./create.ts";
import { pullCommand } from "./pull.ts";
import { queryCommand } from "./query.ts";
import { serveCommand } from "./serve.ts";
import { trustCommand } from "./trust.ts";

/** The top-level help text. */
export const MAIN_HELP = `Usage: svc <command> [options]

Commands:
  serve        serve a store over HTTP (svc serve --help)
  query        SQL over a version in a local store (svc query --help)
  pull         copy a version into a local store (svc pull --help)
  save         write a version as a bundle file (svc save --help)
  load         check a bundle and lay it out in a store (svc load --help)
  trust        pin an origin's signing keys (svc trust --help)
  create       create a local project on a node (svc create --help)
  contribute   send a JSON-lines file of records to a node (svc contribute --help)

Global options (before the command):
  --base-url URL   the origin or node client commands talk to (SVC_BASE_URL)
  --api-key KEY    the agent key they send (SVC_API_KEY)
  --version        print the release and exit
  -h, --help       show this help
`;

/**
 * Runs the command line `args` and resolves with the exit code: 0 done,
 * 1 failed (`error: ...` on stderr), 2 usage error.
 *
 * @example
 * ```ts ignore
 * const code = await main(["--version"]);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  try {
    const [command, ...rest] = takeGlobalFlags(args);
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(MAIN_HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === "--version" || command === "-V") {
      process.stdout.write(`svc ${VERSION}\n`);
      return 0;
    }
    if (command === "serve") return await serveCommand(rest);
    if (command === "query") return await queryCommand(rest);
    if (command === "create") return await createCommand(rest);
    if (command === "pull") return await pullCommand(rest);
    if (command === "save") return await saveCommand(rest);
    if (command === "load") return await loadCommand(rest);
    if (command === "trust") return await trustCommand(rest);
    if (command === "contribute") return await contributeCommand(rest);
    throw new UsageError(`unknown command ${JSON.stringify(command)} (svc --help lists the commands)`);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    const message = e instanceof CliError ? e.message : describe(e);
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

/**
 * Takes `--base-url` and `--api-key` given before the command and makes them
 * the process's `SVC_BASE_URL` and `SVC_API_KEY` for this run; returns the
 * rest.
 */
function takeGlobalFlags(args: string[]): string[] {
  const rest = [...args];
  while (rest[0] === "--base-url" || rest[0] === "--api-key" || /^--(base-url|api-key)=/.test(rest[0] ?? "")) {
    const flag = rest.shift()!;
    const [name, inline] = flag.split(/=(.*)/s, 2);
    const value = inline ?? rest.shift();
    if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
    process.env[name === "--base-url" ? "SVC_BASE_URL" : "SVC_API_KEY"] = value;
  }
  return rest;
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (err?.code === "EADDRINUSE") return `the address is already in use (${err.message})`;
  if (err?.code === "EACCES") return `permission denied (${err.message})`;
  return err?.message ?? String(e);
}
