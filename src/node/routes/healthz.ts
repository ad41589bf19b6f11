/**
 * `GET /healthz`: liveness for everyone; the store summary and follow status
 * only for token holders (or everyone on a node without a token).
 *
 * @module
 */
import type { Health, IncompleteVersion } from "../../wire/types.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";

/** `GET /healthz`; `full` is false for callers without the token. */
export async function getHealth(ctx: NodeContext, full: boolean): Promise<Response> {
  return json(await healthOf(ctx, full));
}

/**
 * What `/healthz` answers: liveness alone, or with `full` the store summary
 * (kept in memory by the store; see `Store.project`), follow status and page
 * cache.
 *
 * @example
 * ```ts ignore
 * const health = await healthOf(ctx, true);
 * ```
 */
export async function healthOf(ctx: NodeContext, full: boolean): Promise<Health | { ok: true }> {
  if (!full) return { ok: true };
  let versions = 0;
  const localProjects: string[] = [];
  const incomplete: IncompleteVersion[] = [];
  const projects = await ctx.store.projects();
  for (const project of projects) {
    versions += project.versions.length;
    incomplete.push(...project.incomplete);
    if (project.meta?.local === true) localProjects.push(project.slug);
  }
  const follow = ctx.follow?.status() ?? {};
  const health: Health = {
    ok: true,
    node: true,
    readOnly: ctx.readOnly,
    store: ctx.storeLabel,
    since: ctx.since.toISOString(),
    projects: projects.length,
    versions,
    localProjects,
    keepVersions: ctx.keepVersions,
    auth: ctx.token ? "token" : "none",
    follow,
    followFailing: Object.entries(follow).filter(([, s]) => s.error !== null).map(([slug]) => slug),
    incomplete,
    pageCache: ctx.pages.cacheStats(),
  };
  return health;
}
