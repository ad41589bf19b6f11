/**
 * What a store last looked at on disk for a project (its summary, its newest
 * whole version), kept while nothing says it changed. Looking again took
 * eight synchronous `stat`s and `lstat`s a request (the symbolic-link guard
 * on the journal's path, the project folder's, the journal's and
 * `project.json`'s stamps, the newest manifest's): a fifth of a cached data
 * page's time. What is kept is looked at again when
 *
 * - the project's folder changed (one `lstat` a request: a version is
 *   committed or pruned by renaming a folder into or out of it,
 *   `project.json` is replaced the same way, and a folder swapped for a
 *   symbolic link is another inode);
 * - this process wrote to the store (see `_writes_seen.ts`), so that a
 *   write is seen by the very next read;
 * - or {@linkcode LOOK_STANDS_MS} have passed: what another process changes
 *   inside the project's subfolders only (a journal line, a file swapped
 *   for a link below the folder) shows within that time.
 *
 * @module
 */
import { linkStampOf } from "../runtime/mod.ts";
import { projectDir } from "./layout.ts";
import { storeWritesMade } from "./_writes_seen.ts";

/** How long a look stands at most. */
export const LOOK_STANDS_MS = 1000;
/**
 * Whether a look taken at `look.at` after `look.writes` writes of this
 * process still stands at `at`: this process has not written since, and
 * fewer than `ms` have passed.
 *
 * @example
 * ```ts
 * import { stands } from "./_recent_looks.ts";
 * stands({ at: 0, writes: 3 }, 500, 3, 1000); // true
 * ```
 */
export function stands(
  look: { at: number; writes: number } | null | undefined,
  at: number,
  writes: number,
  ms: number,
): boolean {
  return look != null && look.writes === writes && at - look.at < ms;
}

/** Looks kept at most (a slug asked for that names no project is a look too). */
const LOOKS_KEPT = 1024;

interface Look {
  at: number;
  writes: number;
  folder: string;
  answer: unknown;
}

/** Looks at a store's projects, kept (see the module's notes). */
export interface RecentLooks {
  /** `look()`'s answer for `kind` of project `slug`: the one kept while it stands, else a new one, kept. */
  of<T>(kind: string, slug: string, look: () => Promise<T>): Promise<T>;
}

/**
 * Recent looks at the projects of the store at `root`.
 *
 * @example
 * ```ts
 * import { recentLooks } from "./_recent_looks.ts";
 * const looks = recentLooks(await Deno.makeTempDir());
 * await looks.of("project", "notes", () => Promise.resolve(null)); // null, kept for the next ask
 * ```
 */
export function recentLooks(root: string, clock: () => number = () => performance.now()): RecentLooks {
  const kept = new Map<string, Look>();
  return {
    async of<T>(kind: string, slug: string, look: () => Promise<T>): Promise<T> {
      // Taken before the look: a change made while it runs makes the next ask look again.
      const folder = linkStampOf(projectDir(root, slug))?.key ?? "-";
      const writes = storeWritesMade();
      const at = clock();
      const key = `${kind}\0${slug}`;
      const hit = kept.get(key);
      if (hit?.folder === folder && stands(hit, at, writes, LOOK_STANDS_MS)) {
        return hit.answer as T;
      }
      const answer = await look();
      kept.delete(key);
      kept.set(key, { at, writes, folder, answer });
      if (kept.size > LOOKS_KEPT) kept.delete(kept.keys().next().value!);
      return answer;
    },
  };
}
