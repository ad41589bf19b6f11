/**
 * Finding the project and version a read asks for, with the messages a
 * client can act on.
 *
 * @module
 */
import type { ProjectState, StoredVersion } from "../store/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { isSlug, notASlug } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";

/** What finding a version needs of the node: its store. */
export type StoreState = Pick<NodeState, "store">;

/**
 * What a node answers for a project it does not hold: the reference node's
 * words, naming the project asked for.
 *
 * @example
 * ```ts
 * import { projectNotFound } from "./versions.ts";
 * projectNotFound("citiez"); // 'project "citiez" not found on this node'
 * ```
 */
export function projectNotFound(slug: string): string {
  return `project ${JSON.stringify(slug.slice(0, 100))} not found on this node`;
}
/** What a node answers for a project with no whole version yet (the reference node's words). */
export const NO_VERSION_YET = "no published version yet";

/** The project `slug`, or 404 (saying what a slug may be when `slug` is none). */
export async function requireProject(state: StoreState, slug: string): Promise<ProjectState> {
  if (!isSlug(slug)) throw new NodeError("not-found", notASlug(slug));
  const project = await state.store.project(slug);
  if (!project) throw new NodeError("not-found", projectNotFound(slug));
  return project;
}

/**
 * Version `wanted` of `slug` (the newest whole one when null), or 404 naming
 * the newest version this node holds and how many (never the whole list,
 * which grows without bound). The hit path reads only that version.
 */
export async function requireVersion(
  state: StoreState,
  slug: string,
  wanted: number | null,
): Promise<StoredVersion> {
  const version = wanted === null ? await state.store.latest(slug) : await state.store.version(slug, wanted);
  if (version) return version;
  const local = (await requireProject(state, slug)).versions;
  if (local.count === 0) throw new NodeError("not-found", NO_VERSION_YET);
  const held = `${local.count} version${local.count === 1 ? "" : "s"} held`;
  throw new NodeError("not-found", `version ${wanted} is not on this node (newest ${local.newest}, ${held})`);
}

/**
 * Runs `fn` over version `wanted` of `slug` (the newest whole one when
 * null) while its parts are leased (see `Store.lease`): a prune that runs
 * meanwhile leaves them on disk, an object store's part cache holds them,
 * until `fn` is done. Not found as {@linkcode requireVersion} says.
 */
export async function withVersion<T>(
  state: StoreState,
  slug: string,
  wanted: number | null,
  fn: (version: StoredVersion) => Promise<T>,
): Promise<T> {
  const version = await requireVersion(state, slug, wanted);
  const release = await state.store.lease(version.parts);
  try {
    return await fn(version);
  } finally {
    release();
  }
}

/** A version held for a reader that outlives one call (a streamed export): release it when done. */
export interface HeldVersion {
  /** The version. */
  version: StoredVersion;
  /** Lets its parts go; a second call does nothing. */
  release(): void;
}

/**
 * Version `wanted` of `slug` with its parts leased until `release()`.
 */
export async function holdVersion(state: StoreState, slug: string, wanted: number | null): Promise<HeldVersion> {
  const version = await requireVersion(state, slug, wanted);
  return { version, release: await state.store.lease(version.parts) };
}
