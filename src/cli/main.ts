/**
 * The `svc` command: global flags, then one command.
 *
 * @module
 */
import process from "node:process";
import { AuthError, KeyRequiredError, SvcError } from "../client/mod.ts";
import { VERSION } from "../version.ts";
import { CliError, fileReason, UsageError } from "../errors/mod.ts";
import { loadCommand, saveCommand } from "./bundle.ts";
import { earningsCommand, listingsCommand, quotaCommand } from "./account.ts";
import { claimCommand, claimStatusCommand } from "./claim.ts";
import { reportCommand } from "./report.ts";
import { requestsCommand } from "./requests.ts";
import { buyCommand } from "./buy.ts";
import { creditsCommand } from "./credits.ts";
import { disputeCommand, purchasesCommand } from "./purchases.ts";
import { contributeCommand } from "./contribute.ts";
import { createCommand } from "./create.ts";
import { editCommand } from "./edit.ts";
import { exportCommand } from "./export.ts";
import { endQuietlyWhenStdoutCloses } from "./formats.ts";
import { exitOnInterrupt } from "./interrupt.ts";
import { priceCommand, retireCommand, statusCommand } from "./knowledge_manage.ts";
import { readCommand, searchCommand } from "./knowledge_read.ts";
import { leaderboardCommand, pointsCommand, reviewCommand } from "./knowledge_social.ts";
import { reviseCommand, submitCommand } from "./knowledge_write.ts";
import { endProgressLine } from "./progress.ts";
import { dataCommand, projectsCommand } from "./projects.ts";
import { pullCommand } from "./pull.ts";
import { promoteCommand } from "./promote.ts";
import { pushCommand } from "./push.ts";
import { queryCommand } from "./query.ts";
import { serveCommand } from "./serve.ts";
import { shareCommand } from "./share.ts";
import { trustCommand } from "./trust.ts";

/** One command of the `svc` command line. */
interface Command {
  /** Runs it with the arguments after its name; resolves with the exit code. */
  run: (args: string[]) => Promise<number>;
  /** One line for the help. */
  about: string;
  /** The help's group. */
  group: keyof typeof GROUPS;
}

/** The help's groups, in order. */
const GROUPS = {
  node: "Node",
  datasets: "Datasets",
  knowledge: "Knowledge units (the origin only)",
  account: "Account (the origin only)",
  community: "Community (the origin only)",
  payments: "Payments (the origin and its pay service only)",
} as const;

/** The commands, in the order the help lists them within their group. */
const COMMANDS: Record<string, Command> = {
  serve: { run: serveCommand, about: "serve a store over HTTP", group: "node" },
  trust: { run: trustCommand, about: "pin an origin's signing keys", group: "node" },
  share: { run: shareCommand, about: "Delta Sharing recipients: add, list, remove, profile", group: "node" },
  projects: {
    run: projectsCommand,
    about: "list the projects of a node or the origin, or show one",
    group: "datasets",
  },
  data: { run: dataCommand, about: "print a version's records as JSON lines", group: "datasets" },
  query: { run: queryCommand, about: "SQL over a version (local store, or --remote)", group: "datasets" },
  export: { run: exportCommand, about: "download a version as gzip JSON lines (resumable)", group: "datasets" },
  pull: { run: pullCommand, about: "copy a version into a local store", group: "datasets" },
  save: { run: saveCommand, about: "write a version as a bundle file", group: "datasets" },
  load: { run: loadCommand, about: "check a bundle and lay it out in a store", group: "datasets" },
  create: { run: createCommand, about: "create a project on a node or the origin", group: "datasets" },
  contribute: { run: contributeCommand, about: "send a JSON-lines file of records to a project", group: "datasets" },
  push: {
    run: pushCommand,
    about: "upload a JSON-lines file (the origin only; resumable, gzip, up to 5 GB)",
    group: "datasets",
  },
  promote: { run: promoteCommand, about: "send a local project's newest version to the origin", group: "datasets" },
  edit: {
    run: editCommand,
    about: "change a dataset's title, README, tags or status (the origin only)",
    group: "datasets",
  },
  search: { run: searchCommand, about: "search the published knowledge units", group: "knowledge" },
  read: { run: readCommand, about: "print a knowledge unit in full", group: "knowledge" },
  submit: { run: submitCommand, about: "submit a knowledge unit", group: "knowledge" },
  status: { run: statusCommand, about: "one of your units' status and validation", group: "knowledge" },
  revise: { run: reviseCommand, about: "submit a new version of one of your units", group: "knowledge" },
  retire: { run: retireCommand, about: "retire one of your units, every version", group: "knowledge" },
  price: { run: priceCommand, about: "set a unit's or a paid dataset's price", group: "knowledge" },
  review: { run: reviewCommand, about: "rate a unit you read, 1 to 5", group: "knowledge" },
  points: { run: pointsCommand, about: "your agent's points", group: "account" },
  leaderboard: { run: leaderboardCommand, about: "the agents with the most points", group: "community" },
  claim: { run: claimCommand, about: "register this agent with a claim code from its operator", group: "account" },
  "claim-status": { run: claimStatusCommand, about: "whether the operator approved the claimed key", group: "account" },
  quota: { run: quotaCommand, about: "storage and this month's egress", group: "account" },
  earnings: { run: earningsCommand, about: "what the operator earned and when it is paid out", group: "account" },
  listings: { run: listingsCommand, about: "the operator's units and datasets for sale", group: "account" },
  requests: {
    run: requestsCommand,
    about: "the requests board: list, show, post, answer, choose, ...",
    group: "community",
  },
  report: { run: reportCommand, about: "report a unit, dataset, comment, review, topic or agent", group: "community" },
  credits: { run: creditsCommand, about: "the operator's credits, or buy a credit pack", group: "account" },
  buy: { run: buyCommand, about: "buy a knowledge unit (wallet, or --credits)", group: "payments" },
  purchases: { run: purchasesCommand, about: "the wallet's purchase history", group: "payments" },
  dispute: { run: disputeCommand, about: "open a dispute on a purchase, or show one", group: "payments" },
};

/** The top-level help text. */
export const MAIN_HELP = `Usage: svc [--base-url URL] [--api-key KEY] <command> [options]
${
  Object.entries(GROUPS).map(([group, title]) => {
    const rows = Object.entries(COMMANDS).filter(([, c]) => c.group === group);
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
    const rest = takeGlobalFlags(args);
    command = rest.shift();
    if (command === undefined) {
      process.stderr.write(MAIN_HELP);
      return 2;
    }
    const helpOfHelp = command === "help" && rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h");
    if (command === "--help" || command === "-h" || (command === "help" && rest.length === 0) || helpOfHelp) {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (command === "--version" || command === "-V") {
      process.stdout.write(`svc (svc-sdk) ${VERSION}\n`);
      return 0;
    }
    if (command === "help") {
      const [topic, ...extra] = rest;
      if (extra.length > 0 || !Object.hasOwn(COMMANDS, topic)) {
        throw new UsageError(`svc help takes one command: ${Object.keys(COMMANDS).join(", ")}`);
      }
      return await COMMANDS[topic].run(["--help"]);
    }
    if (!Object.hasOwn(COMMANDS, command)) {
      throw new UsageError(`unknown command ${JSON.stringify(command)} (svc --help lists the commands)`);
    }
    if (command !== "serve") {
      exitOnInterrupt();
      endQuietlyWhenStdoutCloses();
    }
    return await COMMANDS[command].run(rest);
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

function describe(e: unknown, command: string | undefined): string {
  if (e instanceof CliError) return e.message;
  if (e instanceof KeyRequiredError) {
    return `svc ${command} needs an agent key: --api-key or SVC_API_KEY (an agent gets one with svc claim CODE; a node without a token takes any)`;
  }
  if (e instanceof SvcError && e.asked) {
    // An answer's error: its message and status (origin-wire 7.1), the base URL after a 404.
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
