/**
 * A node's health: liveness for everyone; the store summary and follow
 * status only for token holders (or everyone on a node without a token).
 *
 * @module
 */
import type { Health, IncompleteVersion } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";

/**
 * What `/healthz` answers: liveness alone, or with `full` the store summary
 * (kept in memory by the store; see `Store.project`), follow status and page
 * cache.
 */
export async function healthOf(ctx: NodeState, full: boolean): Promise<Health | { ok: true }> {
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
    store: ctx.storeAsNamed,
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
