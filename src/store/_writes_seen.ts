/**
 * How many writes to a store this process has made: the store's readers keep
 * what they looked at on disk (a project's summary, its newest version) for
 * a moment, and take it again once this count moves, so a write made here is
 * seen by the very next read. Writes of other processes are seen by their
 * change to the project's folder, or when the moment has passed.
 *
 * @module
 */

let made = 0;

/**
 * Counts a write to the store (a version committed or pruned, a journal
 * told, a project's lock let go after its work).
 *
 * @example
 * ```ts
 * import { storeWritesMade, wroteToStore } from "./_writes_seen.ts";
 * const before = storeWritesMade();
 * wroteToStore();
 * storeWritesMade() === before + 1; // true
 * ```
 */
export function wroteToStore(): void {
  made++;
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
