/**
 * The one `svc` command: global flags, then one command, the node's
 * (`src/cli/`) or the origin's (`@svc/origin/cli`, loaded only when one of
 * its commands runs or the help lists them: `svc serve` never loads it).
 *
 * @module
 */
import process from "node:process";
import { AuthError, KeyRequiredError, SvcError } from "../client/mod.ts";
import { VERSION } from "../version.ts";
import { certificateFailure, CliError, closestName, fileReason, UsageError } from "../errors/mod.ts";
import {
  type Command,
  endProgressLine,
  endQuietlyWhenStdoutCloses,
  exitOnInterrupt,
  GROUPS,
  NODE_COMMANDS,
  takeGlobalFlags,
} from "../cli/mod.ts";

/** Every command: the node's, then the origin's (loaded now). */
async function allCommands(): Promise<Record<string, Command>> {
  const { ORIGIN_COMMANDS } = await import("@svc/origin/cli");
  return { ...NODE_COMMANDS, ...ORIGIN_COMMANDS };
}

/**
 * The top-level help text, listing `commands`.
 *
 * @example
 * ```ts
 * import { mainHelp } from "./main.ts";
 * mainHelp({}).startsWith("Usage: svc "); // true
 * ```
 */
export function mainHelp(commands: Readonly<Record<string, Command>>): string {
  return `Usage: svc [--base-url URL] [--api-key KEY] <command> [options]
${
    Object.entries(GROUPS).map(([group, title]) => {
      const rows = Object.entries(commands).filter(([, c]) => c.group === group);
      return rows.length === 0
        ? ""
        : `\n${title}:\n${rows.map(([name, c]) => `  ${name.padEnd(13)} ${c.about}`).join("\n")}\n`;
    }).join("")
  }
  help CMD      the help of a command (same as svc CMD --help)

Global options (before the command):
  --base-url URL   the origin or node client commands talk to (SVC_BASE_URL;
                   default http://127.0.0.1:8686)
  --api-key KEY    the agent key or node token they send (SVC_API_KEY)
  --version        print the release and exit
  -h, --help       show this help

Environment: SVC_BASE_URL, SVC_API_KEY, SVC_PAY_URL (the pay service),
SVC_WALLET_KEY (the wallet that signs purchases, never sent), SVC_MAX_PRICE,
SVC_X402_NETWORKS, SVC_VERIFY, SVC_TRUST_FILE.

Exit codes: 0 done, 1 failed (error: ... on stderr), 2 usage error,
130 interrupted.
`;
}

/**
 * Runs the command line `args` and resolves with the exit code: 0 done,
 * 1 failed (`error: ...` on stderr), 2 usage error.
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["--version"]);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let command: string | undefined;
  try {
    const rest = takeGlobalFlags(args, process.env);
    command = rest.shift();
    // The node's commands run without loading the origin's.
    const own = command !== undefined && Object.hasOwn(NODE_COMMANDS, command) ? NODE_COMMANDS[command] : null;
    if (own !== null) return await run(command!, own, rest);
    const commands = await allCommands();
    if (command === undefined) {
      process.stderr.write(mainHelp(commands));
      return 2;
    }
    const helpOfHelp = command === "help" && rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h");
    if (command === "--help" || command === "-h" || (command === "help" && rest.length === 0) || helpOfHelp) {
      process.stdout.write(mainHelp(commands));
      return 0;
    }
    if (command === "--version" || command === "-V") {
      process.stdout.write(`svc (svc-sdk) ${VERSION}\n`);
      return 0;
    }
    if (command === "help") {
      const [topic, ...extra] = rest;
      if (extra.length > 0 || !Object.hasOwn(commands, topic)) {
        const meant = extra.length === 0 ? closestName(topic, Object.keys(commands)) : null;
        if (meant !== null) {
          throw new UsageError(`svc help: no command ${JSON.stringify(topic)}: did you mean ${meant}?`);
        }
        throw new UsageError(`svc help takes one command: ${Object.keys(commands).join(", ")}`);
      }
      return await commands[topic].run(["--help"]);
    }
    if (!Object.hasOwn(commands, command)) {
      const meant = closestName(command, [...Object.keys(commands), "help"]);
      const hint = meant === null ? "" : `: did you mean svc ${meant}?`;
      throw new UsageError(`unknown command ${JSON.stringify(command)}${hint} (svc --help lists the commands)`);
    }
    return await run(command, commands[command], rest);
  } catch (e) {
    endProgressLine();
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${describe(e, command)}\n`);
    return 1;
  }
}

/** Runs `command` with `rest`: any command but serve ends with Ctrl-C (130) and quietly when stdout closes. */
async function run(name: string, command: Command, rest: string[]): Promise<number> {
  if (name !== "serve") {
    exitOnInterrupt();
    endQuietlyWhenStdoutCloses();
  }
  return await command.run(rest);
}

function describe(e: unknown, command: string | undefined): string {
  if (e instanceof CliError) return e.message;
  const certificate = certificateFailure(e, (globalThis as { Deno?: unknown }).Deno ? "deno" : "node");
  if (certificate !== null) return certificate;
  if (e instanceof KeyRequiredError) {
    return `svc ${command} needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; ` +
      "a node started with a token takes that token as the key)";
  }
  if (e instanceof SvcError && e.asked) {
    // An answer's error: its message and status (origin-wire 7.1), the base URL after a 404.
    if (e instanceof AuthError && e.status === 401 && e.fromNode) {
      const said = (e.body as { error?: unknown } | null)?.error;
      return `${typeof said === "string" ? said : "this node needs its token"} (HTTP 401): ` +
        "pass the node's token as the key, with --api-key TOKEN or SVC_API_KEY";
    }
    if (e instanceof AuthError && e.status === 401) return `${e} (give it with --api-key or SVC_API_KEY)`;
    return e.status === 404 ? `${e} — asked ${e.asked}` : String(e);
  }
  const err = e as { code?: string; message?: string; path?: string; syscall?: string };
  if (err?.code === "EADDRINUSE") return `the address is already in use (${err.message})`;
  if (typeof err?.code === "string" && /^E[A-Z]+$/.test(err.code) && err.syscall) {
    const where = err.path ? ` ${err.path}` : "";
    return `cannot ${err.syscall}${where}: ${fileReason(e)}`;
  }
  return err?.message ?? String(e);
}
