/**
 * The command line's parts for commands built on it (`@svc/cli/command`,
 * which `@svc/origin`'s commands use): a command and its lazy loading, the
 * help's groups, flags and arguments, the endpoint, output, progress on
 * stderr, interrupts and key files.
 *
 * @example
 * ```ts
 * import { commandArgs } from "./kit.ts";
 * commandArgs(["--json", "cities"], { json: { type: "boolean" } }, "projects").positionals; // ["cities"]
 * ```
 *
 * @module
 */
export { type Command, type CommandGroupName, GROUPS, lazy } from "./commands.ts";
export { type CommandArgs, commandArgs, intFlag, type OptionsConfig, projectAt } from "./args.ts";
export { endpointFrom } from "./endpoint.ts";
export { exactJson, writeOut } from "./formats.ts";
export { noteOnInterrupt } from "./interrupt.ts";
export { keyFilePath, type PendingKeyFile, prepareKeyFile, readKeyFile } from "./key_file.ts";
export { plural, type Progress, progress, type ProgressOptions, type Unit } from "./progress.ts";
export { renderTable } from "./table.ts";
