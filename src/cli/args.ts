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

/**
 * Parses `args` against `options`.
 *
 * @example
 * ```ts
 * import { commandArgs } from "./args.ts";
 * commandArgs(["notes", "--json"], { json: { type: "boolean" } }).positionals; // ["notes"]
 * ```
 */
export function commandArgs<const O extends OptionsConfig>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
