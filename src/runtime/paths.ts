/**
 * The temporary and home directories, for a process that may run under
 * narrowed Deno permissions (the container's node reads no environment but
 * `SVC_*`, so `TMPDIR` and `HOME` are out of its reach).
 *
 * @module
 */
import { homedir, tmpdir } from "node:os";
import process from "node:process";
import { HOME_ENV } from "../launch/mod.ts";

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
 * The user's home directory, or null when it may not be read: as the
 * process that narrowed this one said ({@linkcode HOME_ENV}; a narrowed node
 * may not read `HOME`), else the runtime's own answer.
 *
 * @example
 * ```ts
 * import { homeOrNull } from "./paths.ts";
 * console.log(homeOrNull() ?? "no home");
 * ```
 */
export function homeOrNull(): string | null {
  try {
    const told = process.env[HOME_ENV];
    if (told) return told;
  } catch { /* not readable here */ }
  try {
    return homedir() || null;
  } catch {
    return null;
  }
}
