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
  if (!full) return json({ ok: true });
  let versions = 0;
  const localProjects: string[] = [];
  const incomplete: IncompleteVersion[] = [];
  const slugs = await ctx.store.slugs();
  for (const slug of slugs) {
    const project = await ctx.store.project(slug);
    if (!project) continue;
    versions += project.versions.length;
    incomplete.push(...project.incomplete);
    if (project.meta?.local === true) localProjects.push(slug);
  }
  const follow = ctx.follow?.status() ?? {};
  const health: Health = {
    ok: true,
    node: true,
    readOnly: ctx.readOnly,
    store: ctx.storeLabel,
    since: ctx.since.toISOString(),
    projects: slugs.length,
    versions,
    localProjects,
    keepVersions: ctx.keepVersions,
    auth: ctx.token ? "token" : "none",
    follow,
    followFailing: Object.entries(follow).filter(([, s]) => s.error !== null).map(([slug]) => slug),
    incomplete,
    pageCache: ctx.pages.cacheStats(),
  };
  return json(health);
}
