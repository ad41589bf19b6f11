/**
 * The commit of a version: its manifest written (fsynced) in a staging
 * folder beside the versions, then the folder renamed to `v<N>` in one step,
 * and the project folder fsynced. Readers see no version or a whole one;
 * a staging folder left by a crash is ignored by readers and removed by the
 * next write.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { syncDir, writeFileAtomic } from "./atomic.ts";
import { projectDir } from "./layout.ts";
import { stringifyExactJson } from "../wire/mod.ts";

/**
 * Makes version `version` of `slug` appear with `manifest` as its
 * `manifest.json`, with the files of `beside` (name to text) in the same
 * folder. Call after its parts are in place, under the project's lock.
 */
export async function commitVersion(
  root: string,
  slug: string,
  version: number,
  manifest: Record<string, unknown>,
  beside: Record<string, string> = {},
): Promise<void> {
  const dir = projectDir(root, slug);
  const staging = join(dir, `.v${version}.tmp-${randomUUID()}`);
  await mkdir(staging);
  try {
    for (const [name, text] of Object.entries(beside)) await writeFileAtomic(join(staging, name), text);
    await writeFileAtomic(join(staging, "manifest.json"), stringifyExactJson(manifest, 2) + "\n");
    await rename(staging, join(dir, `v${version}`));
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  // The rename was the commit: a failure to flush the folder now must not make the caller think it failed.
  await syncDir(dir).catch(() => {});
}
