/**
 * The store a local command reads, checked before anything opens it: a
 * missing store or project is an error that names the store (as given and
 * in full) and says how to point elsewhere, and nothing is created while
 * only reading.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { projectFile } from "../store/mod.ts";
import { CliError } from "../errors/mod.ts";

/**
 * Throws a {@linkcode CliError} unless `store` holds project `slug`;
 * `remote` says whether the command also takes `--remote`.
 */
export async function requireLocalProject(store: string, slug: string, remote: boolean): Promise<void> {
  const where = store === resolve(store) ? store : `${store} (${resolve(store)})`;
  const elsewhere = remote
    ? "give --store DIR for another, or --remote to ask a node or the origin"
    : "give --store DIR";
  const isDir = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);
  if (!(await isDir(store))) throw new CliError(`there is no store at ${where}: ${elsewhere}`);
  const held = await stat(projectFile(store, slug)).then((s) => s.isFile(), () => false);
  if (!held) throw new CliError(`project ${slug} is not in the store at ${where}: ${elsewhere}`);
}
