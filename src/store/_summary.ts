/**
 * A project's summary: its `project.json` and the versions it holds whole.
 * Read from the project's journal (`index/versions.log`), only what was
 * appended since the last look, so the summary costs the same at ten
 * versions and at a hundred thousand; a version found not whole when it is
 * read is set apart (`incomplete`) until it is whole again. A project
 * without a journal (a store no node has opened yet, or one laid out by
 * hand) is summarized from its folders, every version checked.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileStampOf, type Stamp, stampOf } from "../runtime/mod.ts";
import type { IncompleteVersion } from "../wire/mod.ts";
import type { Checked, PartSize, VersionChecks } from "./_version_check.ts";
import { type HeldVersions, heldVersionsOf, withChanges } from "./held_versions.ts";
import { journalFile, readJournal } from "./journal.ts";
import { manifestFile, projectDir, projectFile, versionOfDirName } from "./layout.ts";
import { isNotFound, type ProjectMeta, readProjectMeta } from "./project_file.ts";

/** A project as the store holds it. */
export interface ProjectState {
  /** Project slug. */
  slug: string;
  /** `project.json`, or null when the copy has none. */
  meta: ProjectMeta | null;
  /** Whole versions. */
  versions: HeldVersions;
  /** Versions on disk that are not whole, and why. */
  incomplete: IncompleteVersion[];
}

/**
 * A folder's modification time is kept with coarse ticks: two changes within
 * one tick can leave the same time. A folder summary is reused only when the
 * folder had not changed for this long when it was made ("racy" otherwise).
 */
const SETTLE_MS = 1000;

/** What a folder summary learned of one version: whole with these parts, or why not. */
type VersionFacts = { parts: string[] } | { reason: string };

/** A summary kept between looks. */
export interface Summary {
  /** The journal's inode and where its whole lines end, or null for a summary made from the folders. */
  journal: { inode: string; end: number; held: HeldVersions } | null;
  /** Identity of `project.json` when it was read. */
  metaKey: string;
  /** `project.json` as read then. */
  meta: ProjectMeta | null;
  /** Versions found not whole when read, and why. */
  incomplete: Map<number, string>;
  /**
   * Folder summaries: identity of the project folder and its parts folder. Journal summaries: the project folder's,
   * once still, when the versions beside the journal were last looked for ("" when they must be looked for again).
   */
  folderKey: string;
  /** Whether the folders had been still long enough for their keys to be trusted. */
  settled: boolean;
  /** Per version, for folder summaries: a version never changes once committed. */
  facts: Map<number, VersionFacts>;
  /** The summary. */
  result: ProjectState | null;
}

function stateOf(slug: string, meta: ProjectMeta | null, held: HeldVersions, incomplete: Map<number, string>) {
  if (!meta && held.count === 0 && incomplete.size === 0) return null;
  const gone = [...incomplete.keys()].filter((n) => held.has(n));
  return {
    slug,
    meta,
    versions: withChanges(held, [], gone),
    incomplete: [...incomplete].sort((a, b) => b[0] - a[0]).map(([version, reason]) => ({
      project: slug,
      version,
      reason,
    })),
  };
}

async function metaOf(root: string, slug: string, previous: Summary | undefined) {
  const stamp = fileStampOf(projectFile(root, slug));
  const metaKey = stamp ? `${stamp.key}:${stamp.size}` : "-";
  if (previous && previous.metaKey === metaKey) return { metaKey, meta: previous.meta };
  return { metaKey, meta: await readProjectMeta(root, slug) };
}

/** The summary of a project with a journal whose stamp is `journal`. */
async function fromJournal(
  root: string,
  slug: string,
  journal: Stamp,
  previous: Summary | undefined,
): Promise<Summary> {
  const inode = journal.key.split(":")[0];
  const before = previous?.journal && previous.journal.inode === inode ? previous.journal : null;
  const { metaKey, meta } = await metaOf(root, slug, previous);
  let held = before?.held ?? heldVersionsOf([]);
  let end = before?.end ?? 0;
  if (journal.size !== end) {
    const read = await readJournal(root, slug, end);
    if (read) {
      if (before) {
        for (const [sign, n] of read.ops) held = withChanges(held, sign === "+" ? [n] : [], sign === "-" ? [n] : []);
      } else {
        const set = new Set<number>();
        for (const [sign, n] of read.ops) sign === "+" ? set.add(n) : set.delete(n);
        held = heldVersionsOf(set);
      }
      end = read.end;
    }
  }
  // A crash between a commit and its journal line leaves the next version's folder unlisted: look for it. And a newest
  // version whose folder went (taken away by hand, a source rolled back) is no longer held. Both change the project
  // folder (a commit renames a version's folder into it), so while it is still and the journal too, nothing is looked at.
  const asked = Date.now();
  const folder = stampOf(projectDir(root, slug));
  const still = before !== null && journal.size === before.end && folder !== null && previous?.folderKey === folder.key;
  if (!still) {
    for (let n = (held.newest ?? 0) + 1; fileStampOf(manifestFile(root, slug, n)) !== null; n++) {
      held = withChanges(held, [n], []);
    }
    while (held.newest !== null && fileStampOf(manifestFile(root, slug, held.newest)) === null) {
      held = withChanges(held, [], [held.newest]);
    }
  }
  const incomplete = previous?.incomplete ?? new Map<number, string>();
  for (const n of incomplete.keys()) if (!held.has(n)) incomplete.delete(n);
  return {
    journal: { inode, end, held },
    metaKey,
    meta,
    incomplete,
    // Kept only once the folder has been still long enough for its stamp to show the next change.
    folderKey: folder !== null && asked - folder.mtimeMs > SETTLE_MS ? folder.key : "",
    settled: true,
    facts: new Map(),
    result: stateOf(slug, meta, held, incomplete),
  };
}

async function versionDirs(root: string, slug: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(projectDir(root, slug));
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
  return names.map(versionOfDirName).filter((n): n is number => n !== null).sort((a, b) => b - a);
}

/** The summary of a project without a journal, from its folders: only versions new since `previous` are read. */
async function fromFolders(root: string, checks: VersionChecks, slug: string, previous: Summary | undefined) {
  const asked = Date.now();
  const self = stampOf(projectDir(root, slug));
  const parts = stampOf(join(projectDir(root, slug), "parts"));
  const folderKey = `${self?.key ?? "-"}/${parts?.key ?? "-"}`;
  if (previous && !previous.journal && previous.settled && previous.folderKey === folderKey) return previous;
  const facts = new Map<number, VersionFacts>();
  const [{ metaKey, meta }, dirs] = await Promise.all([metaOf(root, slug, undefined), versionDirs(root, slug)]);
  const partsChanged = previous?.folderKey.split("/")[1] !== (parts?.key ?? "-");
  let present: Promise<Set<string>> | null = null;
  const listing = () =>
    present ??= readdir(join(projectDir(root, slug), "parts")).then((n) => new Set(n), () => new Set<string>());
  // Versions share parts: each part file is looked at once for the whole summary.
  const sizes = new Map<string, PartSize>();
  const sizeOf = (sha: string) => {
    let size = sizes.get(sha);
    if (size === undefined) sizes.set(sha, size = checks.partSize(slug, sha));
    return size;
  };
  const whole: number[] = [];
  const incomplete = new Map<number, string>();
  for (const n of dirs) {
    let fact = previous?.facts.get(n);
    if (fact && "parts" in fact && partsChanged) {
      const names = await listing();
      const gone = fact.parts.find((sha) => !names.has(`${sha}.parquet`));
      if (gone) fact = { reason: `part ${gone} is missing` };
    } else if (!fact || "reason" in fact) {
      const r: Checked | null = await checks.check(slug, n, sizeOf);
      fact = r === null ? { reason: "manifest.json is missing" } : "reason" in r ? r : {
        parts: r.parts.map((p) => p.sha256),
      };
    }
    facts.set(n, fact);
    if ("parts" in fact) whole.push(n);
    else incomplete.set(n, fact.reason);
  }
  const changed = Math.max(self?.mtimeMs ?? 0, parts?.mtimeMs ?? 0);
  const result = !meta && dirs.length === 0 ? null : stateOf(slug, meta, heldVersionsOf(whole), incomplete);
  return {
    journal: null,
    metaKey,
    meta,
    incomplete,
    folderKey,
    settled: asked - changed > SETTLE_MS,
    facts,
    result,
  } satisfies Summary;
}

/**
 * The summary of `slug`, brought up to date from `previous`.
 *
 * @example
 * ```ts ignore
 * import { summarize } from "./_summary.ts";
 * declare const checks: Parameters<typeof summarize>[1];
 * const summary = await summarize("svc-data", checks, "notes", undefined);
 * console.log(summary.result?.versions.newest);
 * ```
 */
export function summarize(
  root: string,
  checks: VersionChecks,
  slug: string,
  previous: Summary | undefined,
): Promise<Summary> {
  const journal = fileStampOf(journalFile(root, slug));
  return journal ? fromJournal(root, slug, journal, previous) : fromFolders(root, checks, slug, previous);
}

/**
 * Notes what a read of version `version` found in `summary`: set apart
 * while it is not whole, back among the held versions once it is.
 * Answers whether the summary changed.
 */
export function noteChecked(summary: Summary, slug: string, version: number, checked: Checked | null): boolean {
  const reason = checked === null ? "manifest.json is missing" : "reason" in checked ? checked.reason : null;
  if (reason === null ? !summary.incomplete.has(version) : summary.incomplete.get(version) === reason) return false;
  if (!summary.journal?.held.has(version)) return false;
  if (reason === null) summary.incomplete.delete(version);
  else summary.incomplete.set(version, reason);
  summary.result = stateOf(slug, summary.meta, summary.journal.held, summary.incomplete);
  return true;
}
