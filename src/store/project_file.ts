/**
 * Reading `project.json`.
 *
 * @module
 */
import { projectFile } from "./layout.ts";
import { readTextNoFollow } from "./no_follow.ts";

/** What `project.json` holds: the origin's project detail plus local keys. */
export type ProjectMeta = Record<string, unknown>;

/**
 * Reads `<store>/<slug>/project.json`; null when it is absent or not a JSON
 * object (a copy without it takes its schema from the manifest).
 *
 * @example
 * ```ts
 * import { readProjectMeta } from "./project_file.ts";
 * const meta = await readProjectMeta("svc-data", "cities");
 * console.log(meta?.title);
 * ```
 */
export async function readProjectMeta(root: string, slug: string): Promise<ProjectMeta | null> {
  let text: string;
  try {
    text = await readTextNoFollow(root, projectFile(root, slug));
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Whether an error from `node:fs` means the path does not exist.
 *
 * @example
 * ```ts
 * import { isNotFound } from "./project_file.ts";
 * isNotFound(Object.assign(new Error("x"), { code: "ENOENT" })); // true
 * ```
 */
export function isNotFound(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
