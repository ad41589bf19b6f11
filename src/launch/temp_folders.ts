/**
 * The temporary folders a node makes for its helpers: each SQL worker's
 * (`svc-sql-<pid>-...`), each DuckDB read engine's (`svc-read-<pid>-...`,
 * where it spills and writes download lines) and each Parquet writer's
 * (`svc-parquet-writer-<pid>-...`), named for the node's process so that a
 * later start can remove those whose node was killed before it could.
 *
 * @module
 */

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
