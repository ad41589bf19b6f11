/**
 * How the command line fails: usage errors exit 2, everything else 1.
 * Here rather than in `cli/` because serve settings (`settings/`) and the
 * container's entrypoint raise them too.
 *
 * @module
 */

/** A command line that cannot be run as given (exit code 2). */
export class UsageError extends Error {
  /**
   * A usage error saying what is wrong with the command line.
   *
   * @example
   * ```ts
   * import { UsageError } from "./command.ts";
   * new UsageError("--port must be an integer from 0 to 65535").name; // "UsageError"
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
   * A failure saying why the command could not do its work.
   *
   * @example
   * ```ts
   * import { CliError } from "./command.ts";
   * new CliError("refusing to listen on 0.0.0.0 without a token").name; // "CliError"
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

const FILE_REASONS: Record<string, string> = {
  ENOENT: "not found",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory",
  ENOTDIR: "a part of the path is not a directory",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
  EEXIST: "already exists",
  EMFILE: "too many open files",
};

/**
 * Why a file operation failed, in words (`not found`, `permission denied`,
 * `is a directory`, ...), or the system's message when the code is not one
 * of those.
 *
 * @example
 * ```ts
 * import { fileReason } from "./command.ts";
 * fileReason(Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" })); // "not found"
 * ```
 */
export function fileReason(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  const known = typeof err?.code === "string" ? FILE_REASONS[err.code] : undefined;
  return known ?? String(err?.message ?? e);
}

/**
 * A {@linkcode CliError} saying that `path` could not be used, and why:
 * `cannot read records.jsonl: not found`.
 *
 * @example
 * ```ts
 * import { fileError } from "./command.ts";
 * fileError("read", "records.jsonl", Object.assign(new Error(), { code: "EISDIR" })).message;
 * // "cannot read records.jsonl: is a directory"
 * ```
 */
export function fileError(verb: string, path: string, e: unknown): CliError {
  return new CliError(`cannot ${verb} ${path}: ${fileReason(e)}`);
}
