/**
 * `node:util`'s `parseArgs` errors in the command line's words.
 *
 * @module
 */
import { closestName, UsageError } from "../errors/mod.ts";

/**
 * A `parseArgs` error in the command line's words: `unknown option --x
 * (svc query --help lists the options)`, with the option meant when one of
 * `options` (the command's, by long name) is close (`unknown option --lmit:
 * did you mean --limit? (...)`); `--limit needs a value`, `--json takes no
 * value`.
 *
 * @example
 * ```ts
 * import { usageFrom } from "./usage.ts";
 * usageFrom(Object.assign(new Error("Unknown option '--x'."), { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION" }), "query")
 *   .message; // "unknown option --x (svc query --help lists the options)"
 * const e = Object.assign(new Error("Unknown option '--lmit'."), { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION" });
 * usageFrom(e, "data", { limit: {} }).message; // "unknown option --lmit: did you mean --limit? (svc data --help lists the options)"
 * ```
 */
export function usageFrom(e: unknown, command: string, options: Readonly<Record<string, unknown>> = {}): UsageError {
  const { code, message } = e as { code?: string; message: string };
  const named = /'(-[^' ,]*)(?:, (--[^' ]+))?/.exec(message);
  const option = named ? named[2] ?? named[1] : "an option";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const typed = named?.[1] ?? option;
    const meant = typed.startsWith("--") ? closestName(typed.slice(2).split("=")[0], Object.keys(options)) : null;
    const hint = meant === null ? "" : `: did you mean --${meant}?`;
    return new UsageError(`unknown option ${typed}${hint} (svc ${command} --help lists the options)`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/argument missing/.test(message)) return new UsageError(`${option} needs a value`);
    if (/does not take an argument/.test(message)) return new UsageError(`${option} takes no value`);
    if (/ambiguous/.test(message)) {
      return new UsageError(`${option} needs a value (one starting with - is written ${option}=-VALUE)`);
    }
  }
  return new UsageError(`${message.split("\n")[0]} (svc ${command} --help lists the options)`);
}
