/**
 * Command-line parsing shared by the commands: `node:util`'s `parseArgs`,
 * strict, with positionals, its errors turned into usage errors (exit 2).
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The option declarations `parseArgs` takes. */
export type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;
import { UsageError } from "./errors.ts";

/** What {@linkcode commandArgs} gives: `values` by option name, and `positionals`. */
export type CommandArgs<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/**
 * Parses `args` against `options`.
 *
 * @example
 * ```ts
 * import { commandArgs } from "./args.ts";
 * commandArgs(["notes", "--json"], { json: { type: "boolean" } }).positionals; // ["notes"]
 * ```
 */
export function commandArgs<const O extends OptionsConfig>(args: string[], options: O): CommandArgs<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
