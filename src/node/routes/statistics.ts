/**
 * `GET /projects/{slug}/statistics`: a version's column statistics,
 * computed once per version and kept with it (see `versionStatistics`).
 *
 * @module
 */
import { versionStatistics } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonText } from "../response.ts";
import { intParam } from "./_params.ts";

/**
 * `GET /projects/{slug}/statistics?version`: the statistics of that version
 * (the newest whole one when left out).
 *
 * @example
 * ```ts ignore
 * import { getStatistics } from "./statistics.ts";
 * const res = await getStatistics(ctx, "world-cities", new URL("http://node/projects/world-cities/statistics"));
 * ```
 */
export async function getStatistics(ctx: NodeContext, slug: string, url: URL): Promise<Response> {
  const version = intParam(url, "version", { min: 1, fallback: null });
  return jsonText(await versionStatistics(ctx, slug, version));
}
