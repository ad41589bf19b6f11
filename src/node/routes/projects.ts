/**
 * `GET /projects` and `GET /projects/{slug}` (see `projectList` and
 * `projectDetail`), and `GET /healthz` (see `healthOf`).
 *
 * @module
 */
import { healthOf, projectDetail, projectList } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";

/** `GET /projects`: every project in the store. */
export async function listProjects(ctx: NodeContext): Promise<Response> {
  return json(await projectList(ctx));
}

/** `GET /projects/{slug}`: schema, README, license and the local versions. */
export async function getProject(ctx: NodeContext, slug: string): Promise<Response> {
  return json(await projectDetail(ctx, slug));
}

/** `GET /healthz`; `full` is false for callers without the token. */
export async function getHealth(ctx: NodeContext, full: boolean): Promise<Response> {
  return json(await healthOf(ctx, full));
}
