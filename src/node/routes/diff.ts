/**
 * `GET /projects/{slug}/diff?from=&to=&limit=`: what versions `(from, to]`
 * added (see `versionDiff`).
 *
 * @module
 */
import { NodeError } from "../../errors/mod.ts";
import { DEFAULT_DIFF, MAX_DIFF, versionDiff } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { jsonText } from "../response.ts";
import { intParam } from "./_params.ts";

/**
 * `GET /projects/{slug}/diff?from&to&limit`: `from` and `to` required,
 * `0 <= from < to`; `limit` 0-500, default 100 (0: counts only).
 *
 * @example
 * ```ts ignore
 * import { getDiff } from "./diff.ts";
 * declare const ctx: Parameters<typeof getDiff>[0];
 * await getDiff(ctx, "notes", new URL("http://node/projects/notes/diff?from=1&to=3&limit=0"));
 * ```
 */
export async function getDiff(ctx: NodeContext, slug: string, url: URL): Promise<Response> {
  const from = intParam(url, "from", { min: 0 })!;
  const to = intParam(url, "to", { min: 1 })!;
  const limit = intParam(url, "limit", { min: 0, max: MAX_DIFF, fallback: DEFAULT_DIFF })!;
  if (from >= to) throw new NodeError("bad-request", `querystring/from must be < to (${to})`);
  return jsonText(await versionDiff(ctx, slug, { from, to, limit }));
}
