/**
 * The node's datasets as Delta Sharing sees them: one share (named by
 * `--share-name`, default `svc`) holding one schema (`default`) whose tables
 * are the projects that have a whole version. Names are case-insensitive, as
 * the protocol says; a table's versions are the project's versions held.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { ProjectState, Store, StoredVersion } from "../store/mod.ts";
import { isSlug } from "../wire/mod.ts";
import { SharingError } from "./errors.ts";

/** The one schema of the share. */
export const SCHEMA_NAME = "default";

/** The default share name. */
export const DEFAULT_SHARE_NAME = "svc";

/** What the sharing functions read. */
export interface SharingState {
  /** The store, read side. */
  store: Store;
  /** The share's name. */
  share: string;
}

/**
 * A stable UUID-shaped id for `what`.
 *
 * @example
 * ```ts
 * import { stableId } from "./tables.ts";
 * stableId("share:svc").length; // 36
 * ```
 */
export function stableId(what: string): string {
  const h = createHash("sha256").update(what).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function notFound(message: string): SharingError {
  return new SharingError(404, "RESOURCE_DOES_NOT_EXIST", message);
}

/**
 * The share's name as the node spells it, when `name` names it (any case).
 *
 * @example
 * ```ts
 * import { requireShare } from "./tables.ts";
 * requireShare({ share: "svc" } as never, "SVC"); // "svc"
 * ```
 */
export function requireShare(state: Pick<SharingState, "share">, name: string): string {
  if (name.toLowerCase() !== state.share.toLowerCase()) throw notFound(`share ${name.slice(0, 100)} does not exist`);
  return state.share;
}

/**
 * Checks `name` is the share's schema (any case).
 *
 * @example
 * ```ts
 * import { requireSchema } from "./tables.ts";
 * requireSchema("Default"); // "default"
 * ```
 */
export function requireSchema(name: string): string {
  if (name.toLowerCase() !== SCHEMA_NAME) throw notFound(`schema ${name.slice(0, 100)} does not exist`);
  return SCHEMA_NAME;
}

/**
 * The shared tables: every project with a whole version, by slug.
 */
export async function sharedProjects(state: Pick<SharingState, "store">): Promise<ProjectState[]> {
  return (await state.store.projects()).filter((p) => p.versions.count > 0);
}

/**
 * The project table `name` stands for (any case).
 */
export async function requireTable(state: Pick<SharingState, "store">, name: string): Promise<ProjectState> {
  const slug = name.toLowerCase();
  const project = isSlug(slug) ? await state.store.project(slug) : null;
  if (!project || project.versions.count === 0) throw notFound(`table ${name.slice(0, 100)} does not exist`);
  return project;
}

/** The table's id: stable for the project. */
export function tableId(project: ProjectState): string {
  return stableId(`table:${project.slug}:${project.meta?.createdAt ?? ""}`);
}

/**
 * When version `version` was made, in ms since the epoch: its manifest's
 * `createdAt`, else when its manifest was written.
 */
export function versionTime(version: StoredVersion): number {
  const created = Date.parse(version.manifest.createdAt ?? "");
  return Number.isFinite(created) ? created : version.mtime.getTime();
}

/**
 * A protocol timestamp in ms since the epoch: ISO 8601 (`2022-01-01T00:00:00Z`),
 * or the older `yyyy-mm-dd hh:mm:ss[.f]` read as UTC. 400 otherwise.
 *
 * @example
 * ```ts
 * import { parseTimestamp } from "./tables.ts";
 * parseTimestamp("2022-01-01T00:00:00Z", "timestamp"); // 1640995200000
 * ```
 */
export function parseTimestamp(text: string, field: string): number {
  const spaced = /^(\d{4}-\d{1,2}-\d{1,2}) (\d{1,2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(text);
  const iso = spaced ? `${spaced[1]}T${spaced[2]}Z` : text;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(iso) || spaced ? Date.parse(iso) : NaN;
  if (!Number.isFinite(ms)) {
    throw new SharingError(
      400,
      "INVALID_PARAMETER_VALUE",
      `${field} must be an ISO 8601 timestamp such as 2022-01-01T00:00:00Z`,
    );
  }
  return ms;
}

/**
 * The first of the project's held versions (oldest first) for which
 * `after(time)` holds, `after` being false then true along the versions
 * (their times do not go down): its position and the version, or the count
 * and null when there is none. A binary search: a project of a hundred
 * thousand versions reads about seventeen manifests.
 */
export async function firstHeldWhere(
  store: Store,
  project: ProjectState,
  after: (ms: number) => boolean,
): Promise<{ index: number; version: StoredVersion | null }> {
  const held = project.versions;
  let lo = 0;
  let hi = held.count;
  const seen = new Map<number, StoredVersion | null>();
  const versionAt = async (i: number) => {
    if (!seen.has(i)) seen.set(i, await store.version(project.slug, held.at(i)!));
    return seen.get(i)!;
  };
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = await versionAt(mid);
    if (v && after(versionTime(v))) hi = mid;
    else lo = mid + 1;
  }
  return { index: lo, version: lo < held.count ? await versionAt(lo) : null };
}

/**
 * Version `wanted` of the project, its newest when null: 400 past the
 * newest, 404 when it is not held (pruned, or never pulled).
 */
export async function tableVersion(store: Store, project: ProjectState, wanted: number | null): Promise<StoredVersion> {
  const newest = project.versions.newest ?? 0;
  const n = wanted ?? newest;
  if (n > newest) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", `version ${n} is past the table's newest, ${newest}`);
  }
  const version = await store.version(project.slug, n);
  if (!version) {
    const { count, oldest } = project.versions;
    throw notFound(`version ${n} of ${project.slug} is not on this node (${count} held, from ${oldest} to ${newest})`);
  }
  return version;
}

/** 400 for a timestamp later than the newest version held: what reading "as of" or "from" it cannot answer yet. */
function afterNewest(text: string, newest: StoredVersion): SharingError {
  return new SharingError(
    400,
    "INVALID_PARAMETER_VALUE",
    `no version was made at or after ${text.slice(0, 100)}: the table's newest, ${newest.version}, was made at ` +
      new Date(versionTime(newest)).toISOString(),
  );
}

/**
 * The newest version made at or before `ms` (`text` as the client wrote
 * it): 400 when every version held is newer, and 400 when the timestamp is
 * past the newest version (as delta-io/delta-sharing's server answers: a
 * version made later could still be at or before it).
 */
export async function versionAsOf(
  store: Store,
  project: ProjectState,
  ms: number,
  text = new Date(ms).toISOString(),
): Promise<StoredVersion> {
  const newest = await store.latest(project.slug);
  if (newest && ms > versionTime(newest)) throw afterNewest(text, newest);
  const { index } = await firstHeldWhere(store, project, (t) => t > ms);
  const before = index > 0 ? await store.version(project.slug, project.versions.at(index - 1)!) : null;
  if (!before) {
    const oldest = project.versions.oldest;
    const held = oldest === null ? null : await store.version(project.slug, oldest);
    const first = held ? new Date(versionTime(held)).toISOString() : "none";
    throw new SharingError(
      400,
      "INVALID_PARAMETER_VALUE",
      `the timestamp is before the table's first version held (${first})`,
    );
  }
  return before;
}

/**
 * The oldest version made at or after `ms` (`text` as the client wrote it):
 * the first version held when `ms` is older than every one, and 400 when
 * no version was made at or after it, as `/changes` answers.
 */
export async function versionFrom(
  store: Store,
  project: ProjectState,
  ms: number,
  text = new Date(ms).toISOString(),
): Promise<StoredVersion> {
  const found = (await firstHeldWhere(store, project, (t) => t >= ms)).version;
  if (!found) {
    const newest = await store.latest(project.slug);
    if (!newest) throw notFound(`table ${project.slug} has no version held`);
    throw afterNewest(text, newest);
  }
  return found;
}
