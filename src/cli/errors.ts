/**
 * How the command line fails: usage errors exit 2, everything else 1.
 *
 * @module
 */

/** A command line that cannot be run as given (exit code 2). */
export class UsageError extends Error {
  /**
   * @example
   * ```ts
   * import { UsageError } from "./errors.ts";
   * throw new UsageError("--port must be an integer from 0 to 65535");
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A command that could not do its work (exit code 1). */
export class CliError extends Error {
  /**
   * @example
   * ```ts
   * import { CliError } from "./errors.ts";
   * throw new CliError("refusing to listen on 0.0.0.0 without a token");
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}
