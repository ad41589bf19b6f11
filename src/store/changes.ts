/**
 * A version's change: the records it added, as one Parquet file in the
 * project's `parts/` folder, named in `v<N>/changes.json` next to the
 * manifest (written in the same commit). Parts are folded and rewritten as
 * contributions merge, so a version's parts are not its change; this file
 * is. It is kept and pruned with its version, like a part it lists.
 *
 * @module
 */
import { readTextNoFollow } from "./no_follow.ts";
import { join } from "node:path";
import { isSha256 } from "../wire/mod.ts";
import { projectDir } from "./layout.ts";

/** The name of a version's change file in its folder. */
export const CHANGES_FILE = "changes.json";

/** What `v<N>/changes.json` says: the part holding exactly the records version N added. */
export interface VersionChange {
  /** SHA-256 of the change part (`parts/<sha256>.parquet`). */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
  /** The records it holds: those version N added. */
  records: number;
}

/**
 * The text of `v<N>/changes.json` for `change`.
 *
 * @example
 * ```ts
 * import { changeText } from "./changes.ts";
 * changeText({ sha256: "ab".repeat(32), bytes: 10, records: 1 }).startsWith("{"); // true
 * ```
 */
export function changeText(change: VersionChange): string {
  return JSON.stringify({ format: "svc-change-1", ...change }, null, 2) + "\n";
}

/**
 * The change of version `version` of `slug`, or null when it has none (a
 * version pulled from elsewhere, or one made before changes were kept).
 *
 * @example
 * ```ts
 * import { readChange } from "./changes.ts";
 * console.log(await readChange(await Deno.makeTempDir(), "notes", 1)); // null
 * ```
 */
export async function readChange(root: string, slug: string, version: number): Promise<VersionChange | null> {
  const file = join(projectDir(root, slug), `v${version}`, CHANGES_FILE);
  const text = await readTextNoFollow(root, file).catch(() => null);
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<VersionChange>;
    const whole = typeof parsed.sha256 === "string" && isSha256(parsed.sha256) &&
      Number.isSafeInteger(parsed.bytes) && Number.isSafeInteger(parsed.records);
    return whole ? { sha256: parsed.sha256!, bytes: parsed.bytes!, records: parsed.records! } : null;
  } catch {
    return null;
  }
}
