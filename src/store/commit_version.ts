/**
 * The commit of a version: its manifest written (fsynced) in a staging
 * folder beside the versions, then the folder renamed to `v<N>` in one step,
 * and the project folder fsynced; then the project's journal told. Readers
 * see no version or a whole one; a staging folder left by a crash is ignored
 * by readers and removed by the next write.
 *
 * @module
 */
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { syncDir } from "./atomic.ts";
import { manifestFile, projectDir } from "./layout.ts";
import { appendJournal, journalFile, lastCommitted, rebuildJournal } from "./journal.ts";
import { type Version, versionDocument } from "./version.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import { fileStampOf } from "../runtime/mod.ts";
import { wroteToStore } from "./_writes_seen.ts";

async function writeSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes `version` appear as its project's version, its `manifest.json`
 * written by the one writer of versions ({@linkcode versionDocument}).
 * Call after its parts are in place, under the project's lock.
 *
 * @example
 * ```ts ignore
 * import { commitVersion } from "./commit_version.ts";
 * declare const version: Parameters<typeof commitVersion>[1];
 * await commitVersion("svc-data", version);
 * ```
 */
export async function commitVersion(root: string, version: Version): Promise<void> {
  const slug = version.project;
  const dir = projectDir(root, slug);
  // One name per version: what a killed writer left of this version's staging is cleared by the next try.
  const staging = join(dir, `.v${version.version}.tmp`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await writeSynced(join(staging, "manifest.json"), stringifyExactJson(versionDocument(version), 2) + "\n");
    await syncDir(staging);
    await rename(staging, join(dir, `v${version.version}`));
    wroteToStore(root);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  // The rename was the commit: a failure to flush the folder or the journal now must not make the caller think it
  // failed. A merge's journal line is not waited on: a lost one is found again by readers (the next folder).
  await syncDir(dir).catch(() => {});
  await noteCommitted(root, slug, version.version, version.origin?.kind !== "merge").catch(() => {});
}

/**
 * Tells the journal of `slug` that version `n` is committed (made from the
 * folders when the project has none yet). Call under the project's lock.
 */
export async function noteCommitted(root: string, slug: string, n: number, sync: boolean): Promise<void> {
  if (!fileStampOf(journalFile(root, slug))) {
    await rebuildJournal(root, slug);
    return;
  }
  // Versions committed by a writer killed before it told the journal are told now, with this one.
  const last = await lastCommitted(root, slug);
  const missed: string[] = [];
  for (let k = last + 1; k < n; k++) if (fileStampOf(manifestFile(root, slug, k))) missed.push(`+${k}`);
  await appendJournal(root, slug, [...missed, `+${n}`], sync);
}
