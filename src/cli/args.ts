/**
 * Command-line parsing shared by the commands: `node:util`'s `parseArgs`,
 * strict, with positionals, its errors turned into usage errors (exit 2).
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The option declarations `parseArgs` takes. */
export type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;
import { isSlug } from "../wire/slug.ts";
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

/**
 * A `SLUG[@VERSION]` argument, checked: the slug, and the version or null.
 *
 * @example
 * ```ts
 * import { projectAt } from "./args.ts";
 * projectAt("cities@2"); // { slug: "cities", version: 2 }
 * ```
 */
export function projectAt(text: string): { slug: string; version: number | null } {
  const [slug, at] = text.split("@", 2);
  if (!isSlug(slug)) throw new UsageError(`${JSON.stringify(slug)} is not a project slug`);
  if (at !== undefined && !/^[1-9]\d*$/.test(at)) throw new UsageError(`${JSON.stringify(at)} is not a version number`);
  return { slug, version: at === undefined ? null : Number(at) };
}
