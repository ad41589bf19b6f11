/**
 * Command-line parsing shared by the commands: `node:util`'s `parseArgs`,
 * strict, with positionals, its errors turned into usage errors (exit 2)
 * worded for the person at the command line.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isSlug, notASlug } from "../wire/mod.ts";
import { UsageError } from "../errors/mod.ts";
import { usageFrom } from "../settings/mod.ts";

/** The option declarations `parseArgs` takes. */
export type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** What {@linkcode commandArgs} gives: `values` by option name, and `positionals`. */
export type CommandArgs<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/**
 * Parses the arguments of `svc <command>` against `options`.
 *
 * @example
 * ```ts
 * import { commandArgs } from "./args.ts";
 * commandArgs(["notes", "--json"], { json: { type: "boolean" } }, "data").positionals; // ["notes"]
 * ```
 */
export function commandArgs<const O extends OptionsConfig>(
  args: string[],
  options: O,
  command: string,
): CommandArgs<O> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageFrom(e, command, options);
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
  if (!isSlug(slug)) throw new UsageError(notASlug(slug));
  if (at !== undefined && !/^[1-9]\d*$/.test(at)) throw new UsageError(`${JSON.stringify(at)} is not a version number`);
  return { slug, version: at === undefined ? null : Number(at) };
}

/**
 * The whole number given to `--name`, at least `min`, or undefined when the
 * flag was not given.
 *
 * @example
 * ```ts
 * import { intFlag } from "./args.ts";
 * intFlag("limit", "0", 0); // 0
 * ```
 */
export function intFlag(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min) {
    throw new UsageError(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/**
 * The value of whichever of two options naming the same thing was given
 * (`--out` and `--store`), or undefined when neither was; both given is a
 * usage error, even with the same value.
 *
 * @example
 * ```ts
 * import { eitherFlag } from "./args.ts";
 * eitherFlag(["out", "data"], ["store", undefined]); // "data"
 * ```
 */
export function eitherFlag(
  [first, firstRaw]: [string, string | undefined],
  [second, secondRaw]: [string, string | undefined],
): string | undefined {
  if (firstRaw !== undefined && secondRaw !== undefined) {
    throw new UsageError(`--${first} and --${second} are the same option: give one of them`);
  }
  return firstRaw ?? secondRaw;
}

/**
 * The version asked for by `SLUG@N` (`at`) and `--version N` (`raw`): either
 * one, or both when they agree, else a usage error; null when neither.
 *
 * @example
 * ```ts
 * import { versionFrom } from "./args.ts";
 * versionFrom(null, "3"); // 3
 * ```
 */
export function versionFrom(at: number | null, raw: string | undefined): number | null {
  const flag = intFlag("version", raw, 1);
  if (flag !== undefined && at !== null && flag !== at) {
    throw new UsageError(`@${at} and --version ${flag} ask for different versions: give one`);
  }
  return flag ?? at;
}
