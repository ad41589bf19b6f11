/**
 * The temporary and home directories, for a process that may run under
 * narrowed Deno permissions (the container's node reads no environment but
 * `SVC_*`, so `TMPDIR` and `HOME` are out of its reach).
 *
 * @module
 */
import { homedir, tmpdir } from "node:os";

/**
 * The directory for temporary files: the runtime's own answer, or `/tmp`
 * when reading `TMPDIR` is not permitted.
 *
 * @example
 * ```ts
 * import { tempRoot } from "./paths.ts";
 * console.log(tempRoot()); // e.g. "/tmp"
 * ```
 */
export function tempRoot(): string {
  try {
    return tmpdir();
  } catch {
    return "/tmp";
  }
}

/**
 * The user's home directory, or null when it may not be read.
 *
 * @example
 * ```ts
 * import { homeOrNull } from "./paths.ts";
 * console.log(homeOrNull() ?? "no home");
 * ```
 */
export function homeOrNull(): string | null {
  try {
    return homedir() || null;
  } catch {
    return null;
  }
}
