/**
 * `node:util`'s `parseArgs` errors in the command line's words.
 *
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/**
 * A `parseArgs` error in the command line's words: `unknown option --x
 * (svc query --help lists the options)`, `--limit needs a value`, `--json
 * takes no value`.
 *
 * @example
 * ```ts
 * import { usageFrom } from "./usage.ts";
 * usageFrom(Object.assign(new Error("Unknown option '--x'."), { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION" }), "query")
 *   .message; // "unknown option --x (svc query --help lists the options)"
 * ```
 */
export function usageFrom(e: unknown, command: string): UsageError {
  const { code, message } = e as { code?: string; message: string };
  const named = /'(-[^' ,]*)(?:, (--[^' ]+))?/.exec(message);
  const option = named ? named[2] ?? named[1] : "an option";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return new UsageError(`unknown option ${named?.[1] ?? option} (svc ${command} --help lists the options)`);
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
