/**
 * A folder's identity and modification time, read synchronously: what the
 * store's caches compare on every request to learn that nothing changed.
 * Deno's own `statSync` costs a fifth of `node:fs`'s there, and a
 * synchronous stat a fifteenth of an asynchronous one.
 *
 * @module
 */
import { statSync } from "node:fs";
import { denoGlobal } from "./deno.ts";

/** A file's identity (inode and modification time) at one moment. */
export interface Stamp {
  /** `<inode>:<mtime ms>`: equal stamps mean an unchanged file, within the clock's tick. */
  key: string;
  /** Modification time, ms since the epoch. */
  mtimeMs: number;
  /** Size in bytes. */
  size: number;
}

function statNow(path: string): Stamp | null {
  const deno = denoGlobal();
  if (deno) {
    const info = deno.statSync(path);
    const mtimeMs = info.mtime?.getTime() ?? 0;
    return { key: `${info.ino}:${mtimeMs}`, mtimeMs, size: info.size };
  }
  const info = statSync(path, { throwIfNoEntry: false });
  return info ? { key: `${info.ino}:${info.mtimeMs}`, mtimeMs: info.mtimeMs, size: info.size } : null;
}

/**
 * The stamp of `path` (following links), or null when nothing is there or it
 * cannot be read.
 *
 * @example
 * ```ts
 * import { stampOf } from "./stat.ts";
 * const stamp = stampOf("svc-data");
 * ```
 */
export function stampOf(path: string): Stamp | null {
  try {
    return statNow(path);
  } catch {
    return null;
  }
}

/**
 * The stamp of the file `path` (following links), or null when nothing is
 * there; any other failure (no permission, ...) is thrown.
 *
 * @example
 * ```ts
 * import { fileStampOf } from "./stat.ts";
 * const stamp = fileStampOf("svc-data/cities/v3/manifest.json");
 * ```
 */
export function fileStampOf(path: string): Stamp | null {
  try {
    return statNow(path);
  } catch (e) {
    const code = (e as { code?: string } | null)?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw e;
  }
}
