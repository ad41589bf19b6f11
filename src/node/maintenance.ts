/**
 * What a node does to its store when it starts: sweeps what crashes left
 * (temporary files, staging folders), upgrades the store's layout in place
 * when an older release made it (see `upgradeProject`), finishes the
 * bookkeeping of a local project's last merges, and prunes old versions when
 * `--keep-versions` is set. A read-only node writes nothing unless told to prune; trouble is
 * reported, never fatal (the store may sit on a read-only mount).
 *
 * @module
 */
import { pruneReported, type Store, sweepProject, upgradeProject, withProjectLock } from "../store/mod.ts";
import { RECOVER_AT_START, recoverProject } from "../writes/mod.ts";

/** How the node's store is kept. */
export interface Upkeep {
  /** Versions kept per project, or null to keep all. */
  keepVersions: number | null;
  /** Whether the node refuses writes (then only pruning, when asked for, writes). */
  readOnly: boolean;
  /** Where what was pruned is told (the node's log). */
  report(line: string): void;
  /** Where a project that could not be tidied is told. */
  warn(message: string): void;
}

/**
 * Tidies every project of `store` as the node starts.
 */
export async function tidyStore(store: Store, upkeep: Upkeep): Promise<void> {
  // A store in an object store is its writers' to keep; the node's local folder holds only a cache.
  if (store.remote) return;
  for (const slug of await store.slugs().catch(() => [] as string[])) {
    try {
      if (!upkeep.readOnly) {
        await withProjectLock(store.root, slug, async () => {
          await sweepProject(store.root, slug);
          const upgraded = await upgradeProject(store.root, slug, upkeep.report);
          if (upgraded.stacked > 0) {
            upkeep.report(
              `upgraded ${slug}: ${upgraded.stacked} version(s) moved to the part stack and provenance log ` +
                "(each version now writes only its own facts)",
            );
          }
          if ((await store.meta(slug))?.local === true) {
            await recoverProject(store.root, store, slug, Date.now(), RECOVER_AT_START);
          }
        });
      }
      if (upkeep.keepVersions !== null) await pruneReported(store.root, slug, upkeep.keepVersions, upkeep.report);
    } catch (e) {
      upkeep.warn(`could not tidy ${slug} at start: ${(e as Error).message}`);
    }
  }
}
