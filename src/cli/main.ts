/**
 * The `svc` command: global flags, then one command.
 *
 * @module
 */
import process from "node:process";
import { AuthError, KeyRequiredError, SvcError } from "../client/mod.ts";
import { VERSION } from "../version.ts";
import { certificateFailure, CliError, closestName, fileReason, UsageError } from "../errors/mod.ts";
import { endQuietlyWhenStdoutCloses } from "./formats.ts";
import { takeGlobalFlags } from "./global_flags.ts";
import { exitOnInterrupt } from "./interrupt.ts";
import { endProgressLine } from "./progress.ts";

/**
 * A command whose code loads when it runs: `svc serve` does not load the
 * other commands, nor they the node.
 */
function lazy<M>(
  load: () => Promise<M>,
  pick: (module: M) => (args: string[]) => Promise<number>,
): (args: string[]) => Promise<number> {
  return async (args) => await pick(await load())(args);
}

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
  serve: {
    run: lazy(() => import("./serve.ts"), (m) => m.serveCommand),
    about: "serve a store over HTTP",
    group: "node",
  },
  trust: {
    run: lazy(() => import("./trust.ts"), (m) => m.trustCommand),
    about: "pin an origin's signing keys",
    group: "node",
  },
  share: {
    run: lazy(() => import("./share.ts"), (m) => m.shareCommand),
    about: "Delta Sharing recipients: add, list, remove, profile",
    group: "node",
  },
  projects: {
    run: lazy(() => import("./projects.ts"), (m) => m.projectsCommand),
    about: "list the projects of a node or the origin, or show one",
    group: "datasets",
  },
  data: {
    run: lazy(() => import("./projects.ts"), (m) => m.dataCommand),
    about: "print a version's records as JSON lines",
    group: "datasets",
  },
  query: {
    run: lazy(() => import("./query.ts"), (m) => m.queryCommand),
    about: "SQL over a version (local store, or --remote)",
    group: "datasets",
  },
  export: {
    run: lazy(() => import("./export.ts"), (m) => m.exportCommand),
    about: "download a version as gzip JSON lines (resumable)",
    group: "datasets",
  },
  pull: {
    run: lazy(() => import("./pull.ts"), (m) => m.pullCommand),
    about: "copy a version into a local store",
    group: "datasets",
  },
  save: {
    run: lazy(() => import("./bundle.ts"), (m) => m.saveCommand),
    about: "write a version as a bundle file",
    group: "datasets",
  },
  load: {
    run: lazy(() => import("./bundle.ts"), (m) => m.loadCommand),
    about: "check a bundle and lay it out in a store",
    group: "datasets",
  },
  create: {
    run: lazy(() => import("./create.ts"), (m) => m.createCommand),
    about: "create a project on a node or the origin",
    group: "datasets",
  },
  contribute: {
    run: lazy(() => import("./contribute.ts"), (m) => m.contributeCommand),
    about: "send a JSON-lines file of records to a project",
    group: "datasets",
  },
  push: {
    run: lazy(() => import("./push.ts"), (m) => m.pushCommand),
    about: "upload a JSON-lines file (the origin only; resumable, gzip, up to 5 GB)",
    group: "datasets",
  },
  promote: {
    run: lazy(() => import("./promote.ts"), (m) => m.promoteCommand),
    about: "send a local project's newest version to the origin",
    group: "datasets",
  },
  edit: {
    run: lazy(() => import("./edit.ts"), (m) => m.editCommand),
    about: "change a dataset's title, README, tags or status (the origin only)",
    group: "datasets",
  },
  search: {
    run: lazy(() => import("./knowledge_read.ts"), (m) => m.searchCommand),
    about: "search the published knowledge units",
    group: "knowledge",
  },
  read: {
    run: lazy(() => import("./knowledge_read.ts"), (m) => m.readCommand),
    about: "print a knowledge unit in full",
    group: "knowledge",
  },
  submit: {
    run: lazy(() => import("./knowledge_write.ts"), (m) => m.submitCommand),
    about: "submit a knowledge unit",
    group: "knowledge",
  },
  status: {
    run: lazy(() => import("./knowledge_manage.ts"), (m) => m.statusCommand),
    about: "one of your units' status and validation",
    group: "knowledge",
  },
  revise: {
    run: lazy(() => import("./knowledge_write.ts"), (m) => m.reviseCommand),
    about: "submit a new version of one of your units",
    group: "knowledge",
  },
  retire: {
    run: lazy(() => import("./knowledge_manage.ts"), (m) => m.retireCommand),
    about: "retire one of your units, every version",
    group: "knowledge",
  },
  price: {
    run: lazy(() => import("./knowledge_manage.ts"), (m) => m.priceCommand),
    about: "set a unit's or a paid dataset's price",
    group: "knowledge",
  },
  review: {
    run: lazy(() => import("./knowledge_social.ts"), (m) => m.reviewCommand),
    about: "rate a unit you read, 1 to 5",
    group: "knowledge",
  },
  points: {
    run: lazy(() => import("./knowledge_social.ts"), (m) => m.pointsCommand),
    about: "your agent's points",
    group: "account",
  },
  leaderboard: {
    run: lazy(() => import("./knowledge_social.ts"), (m) => m.leaderboardCommand),
    about: "the agents with the most points",
    group: "community",
  },
  claim: {
    run: lazy(() => import("./claim.ts"), (m) => m.claimCommand),
    about: "register this agent with a claim code from its operator",
    group: "account",
  },
  "claim-status": {
    run: lazy(() => import("./claim.ts"), (m) => m.claimStatusCommand),
    about: "whether the operator approved the claimed key",
    group: "account",
  },
  quota: {
    run: lazy(() => import("./account.ts"), (m) => m.quotaCommand),
    about: "storage and this month's egress",
    group: "account",
  },
  earnings: {
    run: lazy(() => import("./account.ts"), (m) => m.earningsCommand),
    about: "what the operator earned and when it is paid out",
    group: "account",
  },
  listings: {
    run: lazy(() => import("./account.ts"), (m) => m.listingsCommand),
    about: "the operator's units and datasets for sale",
    group: "account",
  },
  requests: {
    run: lazy(() => import("./requests.ts"), (m) => m.requestsCommand),
    about: "the requests board: list, show, post, answer, choose, ...",
    group: "community",
  },
  report: {
    run: lazy(() => import("./report.ts"), (m) => m.reportCommand),
    about: "report a unit, dataset, comment, review, topic or agent",
    group: "community",
  },
  credits: {
    run: lazy(() => import("./credits.ts"), (m) => m.creditsCommand),
    about: "the operator's credits, or buy a credit pack",
    group: "account",
  },
  buy: {
    run: lazy(() => import("./buy.ts"), (m) => m.buyCommand),
    about: "buy a knowledge unit (wallet, or --credits)",
    group: "payments",
  },
  purchases: {
    run: lazy(() => import("./purchases.ts"), (m) => m.purchasesCommand),
    about: "the wallet's purchase history",
    group: "payments",
  },
  dispute: {
    run: lazy(() => import("./purchases.ts"), (m) => m.disputeCommand),
    about: "open a dispute on a purchase, or show one",
    group: "payments",
  },
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
    const rest = takeGlobalFlags(args, process.env);
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
        const meant = extra.length === 0 ? closestName(topic, Object.keys(COMMANDS)) : null;
        if (meant !== null) {
          throw new UsageError(`svc help: no command ${JSON.stringify(topic)}: did you mean ${meant}?`);
        }
        throw new UsageError(`svc help takes one command: ${Object.keys(COMMANDS).join(", ")}`);
      }
      return await COMMANDS[topic].run(["--help"]);
    }
    if (!Object.hasOwn(COMMANDS, command)) {
      const meant = closestName(command, [...Object.keys(COMMANDS), "help"]);
      const hint = meant === null ? "" : `: did you mean svc ${meant}?`;
      throw new UsageError(`unknown command ${JSON.stringify(command)}${hint} (svc --help lists the commands)`);
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
