/**
 * The commands of `svc`, each loaded when it runs (`svc serve` loads no
 * other command, nor they the node): the node's own, those that mirror an
 * operation of the catalog (drawn from it), the local store's, and the
 * origin's.
 *
 * @module
 */
import { operations } from "../catalog/mod.ts";

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
export interface Command {
  /** Runs it with the arguments after its name; resolves with the exit code. */
  run: (args: string[]) => Promise<number>;
  /** One line for the help. */
  about: string;
  /** The help's group. */
  group: keyof typeof GROUPS;
}

/** The help's groups, in order. */
export const GROUPS = {
  node: "Node",
  datasets: "Datasets",
  knowledge: "Knowledge units (the origin only)",
  account: "Account (the origin only)",
  community: "Community (the origin only)",
  payments: "Payments (the origin and its pay service only)",
} as const;

/** The commands that run an operation of the catalog their own way, by name. */
const OWN_RUNS: Readonly<Record<string, Command["run"]>> = {
  projects: lazy(() => import("./projects.ts"), (m) => m.projectsCommand),
  data: lazy(() => import("./projects.ts"), (m) => m.dataCommand),
  query: lazy(() => import("./query.ts"), (m) => m.queryCommand),
  export: lazy(() => import("./export.ts"), (m) => m.exportCommand),
  create: lazy(() => import("./create.ts"), (m) => m.createCommand),
  contribute: lazy(() => import("./contribute.ts"), (m) => m.contributeCommand),
};

/**
 * The commands that mirror an operation of the catalog, in its order: each
 * runs its own way, or as the catalog draws it (`operation.ts`).
 */
function catalogCommands(): Record<string, Command> {
  const commands: Record<string, Command> = {};
  for (const op of operations()) {
    if (!op.command) continue;
    const { name, about, group } = op.command;
    const run = OWN_RUNS[name] ?? lazy(() => import("./operation.ts"), (m) => (args) => m.operationCommand(op, args));
    commands[name] = { run, about, group };
  }
  return commands;
}

/** The commands, in the order the help lists them within their group. */
export const COMMANDS: Record<string, Command> = {
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
  ...catalogCommands(),
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
