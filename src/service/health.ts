/**
 * A node's health: liveness for everyone; the store summary and follow
 * status only for token holders (or everyone on a node without a token).
 *
 * @module
 */
import { memoryHealth } from "./memory.ts";
import type { Health, IncompleteVersion, SandboxWall } from "../wire/mod.ts";
import { permissionsNarrowed } from "../runtime/mod.ts";
import type { NodeState } from "./state.ts";

/**
 * The walls up around the node and its SQL workers, as `/healthz` and the
 * start-up log say them: `deno` when the node runs under narrowed Deno
 * permissions, `landlock` and `view` as the SQL workers have them (what the
 * latest to start had, or before any started, what the node expects), and
 * `duckdb` for DuckDB's own settings. Under Node, never `deno` nor `landlock`.
 *
 * @example
 * ```ts ignore
 * import { sandboxWalls } from "./health.ts";
 * const walls = await sandboxWalls(state); // ["landlock", "view", "duckdb"] from a checkout under -A
 * console.error(`sandbox: ${walls.join(", ")}`);
 * ```
 */
export async function sandboxWalls(ctx: Pick<NodeState, "sql">): Promise<SandboxWall[]> {
  const sql = await ctx.sql.walls();
  const up: [SandboxWall, boolean][] = [
    ["deno", permissionsNarrowed()],
    ["landlock", sql.landlock],
    ["view", sql.view],
    ["duckdb", sql.duckdb],
  ];
  return up.filter(([, on]) => on).map(([wall]) => wall);
}

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
    versions += project.versions.count;
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
    sandbox: await sandboxWalls(ctx),
    memory: memoryHealth(ctx),
  };
  return health;
}
