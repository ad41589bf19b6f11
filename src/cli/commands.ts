/**
 * The node's commands of `svc`, each loaded when it runs (`svc serve` loads
 * no other command, nor they the node): the node's own, those that mirror an
 * operation of the catalog (drawn from it), and the local store's. The
 * origin's are `@svc/origin/cli`'s, which the one `svc` command loads when
 * one of them runs or the help lists them.
 *
 * @module
 */
import { operations } from "../catalog/mod.ts";

/**
 * A command whose code loads when it runs: `svc serve` does not load the
 * other commands, nor they the node.
 *
 * @example
 * ```ts ignore
 * import { lazy } from "./commands.ts";
 * const run = lazy(() => import("./trust.ts"), (m) => m.trustCommand);
 * ```
 */
export function lazy<M>(
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
  group: CommandGroupName;
}

/** A group of the help. */
export type CommandGroupName = keyof typeof GROUPS;

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

/** The node's commands, in the order the help lists them within their group (the origin's are `@svc/origin/cli`'s). */
export const NODE_COMMANDS: Record<string, Command> = {
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
  promote: {
    run: lazy(() => import("./promote.ts"), (m) => m.promoteCommand),
    about: "send a local project's newest version to the origin",
    group: "datasets",
  },
};
