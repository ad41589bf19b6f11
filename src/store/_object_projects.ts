/**
 * The projects of a store in an object store, as readers see them: the
 * slugs under the prefix (one listing with a delimiter), and per project
 * its `project.json` and the versions its journal names, read from where
 * the last look ended (`start-after` the last journal key seen), so that a
 * look costs one listing whatever the project's age. Each is kept in
 * memory and looked at again once older than the store's refresh age.
 *
 * @module
 */
import type { S3Client } from "../objectstore/mod.ts";
import { type IncompleteVersion, isSlug } from "../wire/mod.ts";
import { type HeldVersions, heldVersionsOf, withChanges } from "./held_versions.ts";
import { journalPrefix, projectKey, versionOfJournalKey } from "./object_layout.ts";
import type { ProjectMeta } from "./project_file.ts";
import type { ProjectState } from "./_summary.ts";
import { type Kept, kept } from "./_kept.ts";

/** What is known of one project. */
interface ProjectLook {
  /** The last journal key read. */
  cursor: string | undefined;
  /** The versions the journal names. */
  held: HeldVersions;
  /** `project.json`, or null. */
  meta: ProjectMeta | null;
  /** Its entity tag, to skip parsing it again. */
  metaTag: string | null;
}

/** One project's kept summary. */
interface Project {
  look: Kept<ProjectLook>;
  /** Versions found not whole when read, and why (until whole again). */
  incomplete: Map<number, string>;
}

/** The projects of an object store, kept. */
export interface ObjectProjects {
  /** Slugs of the projects under the prefix (a folder of objects each), sorted. */
  slugs(): Promise<string[]>;
  /** The project `slug`, or null when the store holds none of that name. */
  project(slug: string): Promise<ProjectState | null>;
  /** Notes that version `n` of `slug` is not whole (`reason`), or whole again (null). */
  note(slug: string, n: number, reason: string | null): void;
  /** Reads the slugs and `slug` again now (its writer has just changed it). */
  refresh(slug: string): Promise<void>;
}

/** Reads `key` as text, or null when there is no such object; its entity tag with it. */
export async function textOf(client: S3Client, key: string): Promise<{ text: string; etag: string } | null> {
  try {
    const found = await client.get(key);
    return { text: await new Response(found.body).text(), etag: found.etag };
  } catch (e) {
    if ((e as { kind?: string }).kind === "not-found") return null;
    throw e;
  }
}

function metaOf(text: string): ProjectMeta | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The journal's versions listed after `cursor`, and the last key seen. */
async function journalAfter(
  client: S3Client,
  slug: string,
  cursor: string | undefined,
): Promise<{ cursor: string | undefined; added: number[] }> {
  const added: number[] = [];
  let token: string | undefined;
  do {
    const page = await client.listPage(journalPrefix(slug), token ? { token } : { startAfter: cursor });
    for (const object of page.objects) {
      const n = versionOfJournalKey(slug, object.key);
      if (n !== null) added.push(n);
      cursor = object.key;
    }
    token = page.next;
  } while (token);
  return { cursor, added };
}

/**
 * The project as it stands after `before`: its journal read on from its
 * cursor, `project.json` again, both at once (either failing fails the look,
 * and neither is left failing unhandled: an unhandled rejection ends a process).
 */
async function look(client: S3Client, slug: string, before: ProjectLook | null): Promise<ProjectLook> {
  const [found, journal] = await Promise.all([
    textOf(client, projectKey(slug)),
    journalAfter(client, slug, before?.cursor),
  ]);
  let held = before?.held ?? heldVersionsOf([]);
  if (journal.added.length > 0) held = withChanges(held, journal.added, []);
  const unchanged = found !== null && before?.metaTag === found.etag;
  return {
    cursor: journal.cursor,
    held,
    meta: unchanged ? before!.meta : found === null ? null : metaOf(found.text),
    metaTag: found?.etag ?? null,
  };
}

function stateOf(slug: string, seen: ProjectLook, incomplete: Map<number, string>): ProjectState | null {
  const { meta, held } = seen;
  for (const n of incomplete.keys()) if (!held.has(n)) incomplete.delete(n);
  if (!meta && held.count === 0 && incomplete.size === 0) return null;
  const list: IncompleteVersion[] = [...incomplete].sort((a, b) => b[0] - a[0]).map(([version, reason]) => ({
    project: slug,
    version,
    reason,
  }));
  return { slug, meta, versions: withChanges(held, [], [...incomplete.keys()]), incomplete: list };
}

/**
 * The projects of the store `client` reaches, each looked at again once
 * older than `ageMs`; `failed` is told of looks that failed behind a
 * reader's back (the last one stays).
 *
 * @example
 * ```ts ignore
 * import { objectProjects } from "./_object_projects.ts";
 * declare const client: import("../objectstore/mod.ts").S3Client;
 * const projects = objectProjects(client, 1000, console.error);
 * console.log(await projects.slugs());
 * ```
 */
export function objectProjects(client: S3Client, ageMs: number, failed: (e: unknown) => void): ObjectProjects {
  const projects = new Map<string, Project>();
  const listing = kept(
    async () => {
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.listPage("", { delimiter: "/", token });
        for (const prefix of page.prefixes) {
          const name = prefix.replace(/\/$/, "");
          if (isSlug(name)) names.push(name);
        }
        token = page.next;
      } while (token);
      const sorted = names.sort();
      // Projects gone from the bucket are forgotten: what is kept stays within what the bucket holds.
      for (const slug of projects.keys()) if (!sorted.includes(slug)) projects.delete(slug);
      return sorted;
    },
    ageMs,
    failed,
  );
  const projectOf = (slug: string): Project => {
    let project = projects.get(slug);
    if (!project) {
      let last: ProjectLook | null = null;
      const read = async () => (last = await look(client, slug, last));
      project = { look: kept(read, ageMs, failed), incomplete: new Map() };
      projects.set(slug, project);
    }
    return project;
  };
  const result = async (slug: string) => {
    let names = await listing.get();
    // A project asked for and not listed is looked for now, at most once an age: it may have just been written.
    if (!names.includes(slug) && listing.old()) names = await listing.refresh();
    if (!names.includes(slug)) return null;
    const project = projectOf(slug);
    return stateOf(slug, await project.look.get(), project.incomplete);
  };
  return {
    async slugs() {
      const out: string[] = [];
      for (const slug of await listing.get()) if (await result(slug)) out.push(slug);
      return out;
    },
    project: (slug) => isSlug(slug) ? result(slug) : Promise.resolve(null),
    note(slug, n, reason) {
      const project = projects.get(slug);
      if (!project) return;
      if (reason === null) project.incomplete.delete(n);
      else project.incomplete.set(n, reason);
    },
    async refresh(slug) {
      await listing.refresh();
      await projectOf(slug).look.refresh();
    },
  };
}
