/**
 * The projects a node holds: the list (`GET /projects`, MCP `list_datasets`),
 * one project's detail (`GET /projects/{slug}`, MCP `dataset_info`) and its
 * versions, a page at a time (`GET /projects/{slug}/versions`, MCP
 * `list_versions`).
 *
 * @module
 */
import { type ProjectState, publishManifest, type StoredVersion } from "../store/mod.ts";
import type { ProjectDetail, ProjectEntry, SchemaDef, VersionSummary } from "../wire/mod.ts";
import type { NodeState } from "./state.ts";
import { requireProject } from "./versions.ts";
import type { ServiceTable } from "./service_table.ts";
import type { AnswerOf } from "../catalog/mod.ts";

/** What the project services need of the node. */
export type ProjectsState = Pick<NodeState, "store" | "pages">;

/** How many versions the project detail lists. */
const DETAIL_VERSIONS = 10;

function str(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

async function versionRecords(state: ProjectsState, version: StoredVersion | null): Promise<number> {
  if (!version) return 0;
  const declared = version.manifest.totals.records;
  if (declared !== null) return declared;
  return (await state.pages.partRecords(version)).reduce((a, b) => a + b, 0);
}

function schemaOf(project: ProjectState, latest: StoredVersion | null): SchemaDef | null {
  const meta = project.meta ?? {};
  for (const candidate of [meta.schemaDef, meta.schema, latest?.manifest.schema]) {
    if (candidate && typeof candidate === "object" && Array.isArray((candidate as SchemaDef).fields)) {
      const s = candidate as SchemaDef & { hash?: unknown };
      return { fields: s.fields, allowExtra: s.allowExtra === true };
    }
  }
  return null;
}

function latestKnown(project: ProjectState): number {
  return Math.max(num(project.meta?.latestVersion, 0), project.versions.newest ?? 0);
}

async function latestVersion(state: ProjectsState, project: ProjectState): Promise<StoredVersion | null> {
  const n = project.versions.newest;
  return n === null ? null : await state.store.version(project.slug, n);
}

/**
 * The list entry of one project.
 */
export async function projectEntry(state: ProjectsState, project: ProjectState): Promise<ProjectEntry> {
  const meta = project.meta ?? {};
  const latest = await latestVersion(state, project);
  return {
    slug: project.slug,
    title: str(meta.title, project.slug),
    status: str(meta.status, "open"),
    license: str(meta.license, "unknown"),
    access: str(meta.access, "public"),
    visibility: str(meta.visibility, "public"),
    createdAt: str(meta.createdAt, "") || null,
    stars: num(meta.stars, 0),
    contributions: latest?.manifest.totals.contributions ?? num(meta.contributions, 0),
    records: await versionRecords(state, latest),
    latestVersion: latestKnown(project),
    localVersions: project.versions.count,
    local: meta.local === true,
  };
}

/**
 * Every project in the store, as `GET /projects` lists them.
 */
export async function projectList(state: ProjectsState): Promise<{ projects: ProjectEntry[] }> {
  const projects: ProjectEntry[] = [];
  for (const project of await state.store.projects()) projects.push(await projectEntry(state, project));
  return { projects };
}

/**
 * One project: schema, README, license and the versions held, as `GET
 * /projects/{slug}` answers; not found when the store has no such project.
 */
export async function projectDetail(state: ProjectsState, slug: string): Promise<ProjectDetail> {
  const project = await requireProject(state, slug);
  const meta = project.meta ?? {};
  const latest = await latestVersion(state, project);
  const versions: VersionSummary[] = [];
  for (const n of project.versions.newestFirst(DETAIL_VERSIONS)) {
    const v = n === latest?.version ? latest : await state.store.version(slug, n);
    if (!v) continue;
    // A local version's parts leave their sources to its manifest: ten of them could each list every contribution.
    const manifest = await publishManifest(v, { partUrl: null, sources: false });
    versions.push({ version: n, manifest, createdAt: v.manifest.createdAt ?? v.mtime.toISOString() });
  }
  const detail: ProjectDetail = {
    id: typeof meta.id === "string" ? meta.id : null,
    slug,
    title: str(meta.title, slug),
    readme: str(meta.readme, ""),
    schemaDef: schemaOf(project, latest),
    license: str(meta.license, "unknown"),
    tags: Array.isArray(meta.tags) ? meta.tags.filter((t) => typeof t === "string") : [],
    access: str(meta.access, "public"),
    visibility: str(meta.visibility, "public"),
    maintainer: meta.maintainer ?? null,
    local: meta.local === true,
    status: str(meta.status, "open"),
    createdAt: str(meta.createdAt, "") || null,
    stars: num(meta.stars, 0),
    latestVersion: latestKnown(project),
    localVersions: project.versions.newestFirst(),
    contributors: Array.isArray(meta.contributors) ? meta.contributors : [],
    versions,
  };
  return detail;
}

/**
 * The numbers of a page of `held`, newest first: at most `limit`, all older
 * than `before` when given; and the `before` of the next page, or null at
 * the end. Walks the runs from the newest, so a page of a project holding a
 * hundred thousand versions costs the page, not the history.
 *
 * @example
 * ```ts
 * import { versionPage } from "./projects.ts";
 * versionPage({ runs: [[1, 3], [7, 9]], oldest: 1 }, 2, 8); // { numbers: [7, 3], next: 3 }
 * ```
 */
export function versionPage(
  held: { readonly runs: readonly (readonly [number, number])[]; readonly oldest: number | null },
  limit: number,
  before: number | null,
): { numbers: number[]; next: number | null } {
  const numbers: number[] = [];
  const below = before ?? Infinity;
  for (let r = held.runs.length - 1; r >= 0 && numbers.length < limit; r--) {
    const [first, last] = held.runs[r];
    for (let n = Math.min(last, below - 1); n >= first && numbers.length < limit; n--) numbers.push(n);
  }
  const oldestListed = numbers[numbers.length - 1];
  const more = oldestListed !== undefined && held.oldest !== null && held.oldest < oldestListed;
  return { numbers, next: more ? oldestListed : null };
}

/**
 * A page of the versions `slug` holds, newest first (`limit` of them, older
 * than `before` when given): each one's number, when it was made, its
 * records and parts, read from its manifest alone.
 */
export async function projectVersions(
  state: ProjectsState,
  slug: string,
  page: { limit: number; before: number | null },
): Promise<AnswerOf<"list_versions">> {
  const project = await requireProject(state, slug);
  const { numbers, next } = versionPage(project.versions, page.limit, page.before);
  const versions: AnswerOf<"list_versions">["versions"] = [];
  for (const n of numbers) {
    // A version pruned since the listing is left out.
    const v = await state.store.version(slug, n);
    if (!v) continue;
    const createdAt = v.manifest.createdAt ?? v.mtime.toISOString();
    versions.push({ version: n, createdAt, records: await versionRecords(state, v), parts: v.parts.length });
  }
  return { project: slug, count: project.versions.count, versions, next };
}

/** The projects' operations a service answers alone. */
export const PROJECT_SERVICES = {
  list_projects: (state) => projectList(state),
  project_detail: (state, input) => projectDetail(state, input.slug),
  list_versions: (state, input) => projectVersions(state, input.slug, input),
} as const satisfies ServiceTable;
