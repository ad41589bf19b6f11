/**
 * Finding the project and version a read asks for, with the messages a
 * client can act on.
 *
 * @module
 */
import type { ProjectState, StoredVersion } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { HttpError } from "../response.ts";

/** What a node answers for a project it does not hold (the reference node's words). */
export const PROJECT_NOT_FOUND = "project not found on this node";
/** What a node answers for a project with no whole version yet (the reference node's words). */
export const NO_VERSION_YET = "no published version yet";

/** The project `slug`, or 404. */
export async function requireProject(ctx: NodeContext, slug: string): Promise<ProjectState> {
  const project = await ctx.store.project(slug);
  if (!project) throw new HttpError(404, PROJECT_NOT_FOUND);
  return project;
}

/**
 * Version `wanted` of `slug` (the newest whole one when null), or 404 naming
 * the newest version this node holds and how many (never the whole list,
 * which grows without bound). The hit path reads only that version.
 */
export async function requireVersion(ctx: NodeContext, slug: string, wanted: number | null): Promise<StoredVersion> {
  const version = wanted === null ? await ctx.store.latest(slug) : await ctx.store.version(slug, wanted);
  if (version) return version;
  const local = (await requireProject(ctx, slug)).versions;
  if (local.length === 0) throw new HttpError(404, NO_VERSION_YET);
  const held = `${local.length} version${local.length === 1 ? "" : "s"} held`;
  throw new HttpError(404, `version ${wanted} is not on this node (newest ${local[0]}, ${held})`);
}
