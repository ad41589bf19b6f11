/**
 * The node's command line, for the one `svc` command (`src/svc/`): the
 * node's commands (each loaded when it runs), the help's groups, the global
 * flags, how a command ends (Ctrl-C, a closed stdout, a progress line), and
 * `svc serve` under narrowed permissions. Commands built on it take its
 * parts from `kit.ts` (`@svc/cli/command`).
 *
 * @module
 */
export { type Command, GROUPS, NODE_COMMANDS } from "./commands.ts";
export { endQuietlyWhenStdoutCloses } from "./formats.ts";
export { takeGlobalFlags } from "./global_flags.ts";
export { exitOnInterrupt } from "./interrupt.ts";
export { endProgressLine } from "./progress.ts";
export { serveSandboxed } from "./sandbox.ts";
