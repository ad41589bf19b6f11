/**
 * A version's column statistics, kept beside its manifest once computed:
 * `v<N>/statistics.json`, written atomically (a temporary file in the
 * project's `index/` folder, fsynced, renamed into place, the folder
 * fsynced). It lives in the
 * version's folder, so it goes when retention prunes the version. The file
 * holds `{"tag": ..., "statistics": <the answer>}`: the tag names what the
 * answer was computed from (the format and the parts), and a file of another
 * tag is not served.
 *
 * @module
 */
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { manifestFile, projectDir } from "./layout.ts";
import { openRegularFile } from "./regular_file.ts";

/** The name of a version's statistics file in its folder. */
export const STATISTICS_FILE = "statistics.json";

/**
 * `<store>/<slug>/v<N>/statistics.json`.
 *
 * @example
 * ```ts
 * import { statisticsFile } from "./statistics_file.ts";
 * statisticsFile("svc-data", "cities", 2); // "svc-data/cities/v2/statistics.json"
 * ```
 */
export function statisticsFile(root: string, slug: string, version: number): string {
  return join(dirname(manifestFile(root, slug, version)), STATISTICS_FILE);
}

function head(tag: string): string {
  return `{"tag":${JSON.stringify(tag)},"statistics":`;
}

/**
 * The statistics kept for version `version` of `slug` under `tag`, as the
 * JSON text they were kept as; null when there is no such file (or it is not
 * a regular file, or was kept under another tag).
 *
 * @example
 * ```ts
 * import { readStatistics } from "./statistics_file.ts";
 * console.log(await readStatistics(await Deno.makeTempDir(), "notes", 1, "t")); // null
 * ```
 */
export async function readStatistics(root: string, slug: string, version: number, tag: string): Promise<string | null> {
  const opened = await openRegularFile(statisticsFile(root, slug, version));
  if (!opened) return null;
  let text: string;
  try {
    text = await opened.handle.readFile("utf8");
  } finally {
    await opened.handle.close();
  }
  const start = head(tag);
  return text.startsWith(start) && text.endsWith("}\n") ? text.slice(start.length, -2) : null;
}

/**
 * Keeps `statistics` (JSON text) as version `version` of `slug`'s statistics
 * under `tag`. Never makes the version's folder: when the version is gone
 * (pruned meanwhile) nothing is written and the answer is false.
 *
 * @example
 * ```ts
 * import { writeStatistics } from "./statistics_file.ts";
 * await writeStatistics(await Deno.makeTempDir(), "notes", 1, "t", "{}"); // false: there is no v1 folder
 * ```
 */
export async function writeStatistics(
  root: string,
  slug: string,
  version: number,
  tag: string,
  statistics: string,
): Promise<boolean> {
  // The temporary is made in the project's index folder, which the sweep after a crash looks in (it does not look
  // in every version's folder: a project may have a hundred thousand).
  const tempDir = join(projectDir(root, slug), "index");
  await mkdir(tempDir, { recursive: true });
  return await writeFileAtomic(statisticsFile(root, slug, version), `${head(tag)}${statistics}}\n`, "existing", {
    tempDir,
  });
}
