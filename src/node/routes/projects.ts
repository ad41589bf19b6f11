/**
 * `GET /projects` and `GET /projects/{slug}`.
 *
 * @module
 */
import { type ProjectState, publishManifest, type StoredVersion } from "../../store/mod.ts";
import type { ProjectDetail, ProjectEntry, SchemaDef, VersionSummary } from "../../wire/types.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";
import { requireProject } from "./_version.ts";

/** How many versions the project detail lists. */
const DETAIL_VERSIONS = 10;

function str(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function totals(version: StoredVersion | null): Record<string, unknown> {
  const t = version?.manifest.raw.totals;
  return t && typeof t === "object" ? t as Record<string, unknown> : {};
}

async function versionRecords(ctx: NodeContext, version: StoredVersion | null): Promise<number> {
  if (!version) return 0;
  const declared = totals(version).records;
  if (typeof declared === "number") return declared;
  return (await ctx.pages.partRecords(version)).reduce((a, b) => a + b, 0);
}

function schemaOf(project: ProjectState, latest: StoredVersion | null): SchemaDef | null {
  const meta = project.meta ?? {};
  for (const candidate of [meta.schemaDef, meta.schema, latest?.manifest.raw.schema]) {
    if (candidate && typeof candidate === "object" && Array.isArray((candidate as SchemaDef).fields)) {
      const s = candidate as SchemaDef & { hash?: unknown };
      return { fields: s.fields, allowExtra: s.allowExtra === true };
    }
  }
  return null;
}

function latestKnown(project: ProjectState): number {
  return Math.max(num(project.meta?.latestVersion, 0), project.versions[0] ?? 0);
}

async function latestVersion(ctx: NodeContext, project: ProjectState): Promise<StoredVersion | null> {
  const n = project.versions[0];
  return n === undefined ? null : await ctx.store.version(project.slug, n);
}

/**
 * The list entry of one project.
 */
export async function projectEntry(ctx: NodeContext, project: ProjectState): Promise<ProjectEntry> {
  const meta = project.meta ?? {};
  const latest = await latestVersion(ctx, project);
  return {
    slug: project.slug,
    title: str(meta.title, project.slug),
    status: str(meta.status, "open"),
    license: str(meta.license, "unknown"),
    access: str(meta.access, "public"),
    visibility: str(meta.visibility, "public"),
    createdAt: str(meta.createdAt, "") || null,
    stars: num(meta.stars, 0),
    contributions: num(totals(latest).contributions, num(meta.contributions, 0)),
    records: await versionRecords(ctx, latest),
    latestVersion: latestKnown(project),
    localVersions: project.versions.length,
    local: meta.local === true,
  };
}

/** `GET /projects`: every project in the store. */
export async function listProjects(ctx: NodeContext): Promise<Response> {
  const projects: ProjectEntry[] = [];
  for (const project of await ctx.store.projects()) projects.push(await projectEntry(ctx, project));
  return json({ projects });
}

/** `GET /projects/{slug}`: schema, README, license and the local versions. */
export async function getProject(ctx: NodeContext, slug: string): Promise<Response> {
  const project = await requireProject(ctx, slug);
  const meta = project.meta ?? {};
  const latest = await latestVersion(ctx, project);
  const versions: VersionSummary[] = [];
  for (const n of project.versions.slice(0, DETAIL_VERSIONS)) {
    const v = n === latest?.version ? latest : await ctx.store.version(slug, n);
    if (!v) continue;
    const manifest = publishManifest(v.manifest, slug, n, null);
    versions.push({ version: n, manifest, createdAt: str(v.manifest.raw.createdAt, v.mtime.toISOString()) });
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
    localVersions: project.versions,
    contributors: Array.isArray(meta.contributors) ? meta.contributors : [],
    versions,
  };
  return json(detail);
}
