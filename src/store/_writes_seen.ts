/**
 * Writes to a store, as readers learn of them. The store's readers keep what
 * they looked at on disk (a project's summary, its newest version, the list
 * of projects) for a moment, and take it again once a write is seen:
 *
 * - a write made by this process moves a count, so the very next read here
 *   looks again;
 * - a write made by another process stamps the store folder's modification
 *   time once it is done, so the list of projects (`/healthz`, `GET
 *   /projects`) is looked at again by the next read of every process on the
 *   store with one `stat` of that folder, however many projects it holds
 *   (reads within a millisecond of each other share one: `FOLDER_LOOK_MS`,
 *   `store.ts`).
 *
 * What changes a project without a store writer (a version folder moved in by
 * hand) shows in the list within the moment a look stands (a second); a
 * project's own routes see it at once (they look at its folder).
 *
 * @module
 */
import { utimesSync } from "node:fs";

let made = 0;

/**
 * Counts a write to the store at `root` (a version committed or pruned, a
 * journal told, a project's lock let go after its work) and stamps the store
 * folder's modification time for readers in other processes. A folder this
 * process may not stamp (another owner's) is left as it is: its readers see
 * the write within a second.
 *
 * @example
 * ```ts
 * import { storeWritesMade, wroteToStore } from "./_writes_seen.ts";
 * const before = storeWritesMade();
 * wroteToStore(await Deno.makeTempDir());
 * storeWritesMade() === before + 1; // true
 * ```
 */
export function wroteToStore(root: string): void {
  made++;
  try {
    const now = new Date();
    utimesSync(root, now, now);
  } catch {
    // Not the owner of the store folder, or a read-only file system: the moment a look stands covers it.
  }
}

/**
 * The writes to a store this process has made so far.
 *
 * @example
 * ```ts
 * import { storeWritesMade } from "./_writes_seen.ts";
 * storeWritesMade(); // 0 before any
 * ```
 */
export function storeWritesMade(): number {
  return made;
}
