/**
 * The temporary folders a node makes for its helpers: each SQL worker's
 * (`svc-sql-<pid>-...`), each DuckDB read engine's (`svc-read-<pid>-...`,
 * where it spills and writes download lines) and each Parquet writer's
 * (`svc-parquet-writer-<pid>-...`), named for the node's process so that a
 * later start can remove those whose node was killed before it could.
 *
 * @module
 */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";

/**
 * A helper's temporary folder, its node's process id captured.
 *
 * @example
 * ```ts
 * import { OWNED_TEMP_FOLDER } from "./temp_folders.ts";
 * OWNED_TEMP_FOLDER.exec("svc-parquet-writer-4242-a1b2c3")?.[1]; // "4242"
 * OWNED_TEMP_FOLDER.exec("svc-read-4242-a1b2c3")?.[1]; // "4242"
 * OWNED_TEMP_FOLDER.test("svc-download-a1b2c3"); // false
 * ```
 */
export const OWNED_TEMP_FOLDER = /^svc-(?:sql|read|parquet-writer)-(\d+)-/;

/**
 * How the launcher tells the narrowed node how many such folders it swept
 * before replacing itself: the node says so once its settings are known
 * good, so that a command line in error prints its error alone.
 */
export const SWEPT_FOLDERS_ENV = "SVC_SWEPT_TEMP_FOLDERS";

/**
 * What the log says when a start removed `swept` such folders (the launcher
 * or the node, whichever swept).
 *
 * @example
 * ```ts
 * import { sweptFoldersLine } from "./temp_folders.ts";
 * sweptFoldersLine(2); // "removed 2 temp folder(s) of SQL workers, DuckDB engines and Parquet writers whose node ..."
 * ```
 */
export function sweptFoldersLine(swept: number): string {
  return `removed ${swept} temp folder(s) of SQL workers, DuckDB engines and Parquet writers whose node had stopped ` +
    "without cleaning up";
}

/** Whether process `pid` is alive here; true when that cannot be told (a folder in use is never swept). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code !== "ESRCH";
  }
}

/** Folders of an earlier release, before their names carried the node's process id. */
const LEGACY_FOLDER = /^svc-sql-[A-Za-z0-9]{6}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the folders under `root` (the temporary directory) of helpers
 * whose node is gone (killed before it could clean up): named for a process
 * that no longer runs ({@linkcode OWNED_TEMP_FOLDER}), or SQL workers' of an
 * earlier release untouched for a day. Resolves with how many it removed.
 *
 * @example
 * ```ts
 * import { sweepStaleTempFolders } from "./temp_folders.ts";
 * const swept = await sweepStaleTempFolders(await Deno.makeTempDir());
 * ```
 */
export async function sweepStaleTempFolders(root: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  let swept = 0;
  for (const name of names) {
    const pid = OWNED_TEMP_FOLDER.exec(name)?.[1];
    if (pid === undefined && !LEGACY_FOLDER.test(name)) continue;
    const path = join(root, name);
    let stale = pid !== undefined && Number(pid) !== process.pid && !alive(Number(pid));
    if (pid === undefined) {
      stale = await stat(path).then((s) => Date.now() - s.mtimeMs > DAY_MS, () => false);
    }
    if (stale && await rm(path, { recursive: true, force: true }).then(() => true, () => false)) swept++;
  }
  return swept;
}
