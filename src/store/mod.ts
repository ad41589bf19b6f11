/**
 * The store: layout, `project.json`, versions (one typed model, one
 * writer), the part stack and provenance of local projects, and the versions
 * readers may see; on disk, or in an S3-compatible bucket (read by nodes that
 * keep only the parts they read, written by pulls, loads and followers).
 *
 * @module
 */
export * from "./atomic.ts";
export * from "./commit_version.ts";
export * from "./contributions.ts";
export * from "./disk_full.ts";
export * from "./export_cache.ts";
export * from "./identity_index.ts";
export * from "./layout.ts";
export * from "./lock.ts";
export * from "./manifest.ts";
export * from "./order_file.ts";
export * from "./provenance.ts";
export * from "./project_file.ts";
export * from "./retention.ts";
export * from "./statistics_file.ts";
export * from "./store.ts";
export * from "./version.ts";
export * from "./held_versions.ts";
export { type PartNode, partNodeOf, type PartStack, partStack } from "./part_stack.ts";
export { journalFile, readJournal } from "./journal.ts";
export { upgradeProject, type UpgradeResult } from "./upgrade.ts";
export { openRegularFile } from "./regular_file.ts";
export {
  linkBelow,
  openNoFollow,
  projectLinked,
  projectLinks,
  readTextNoFollow,
  refusedLink,
  reportRefusedLinks,
  versionLink,
} from "./no_follow.ts";
export { storeBytes } from "./usage.ts";
export { CHANGES_FILE, changeText, readChange, type VersionChange } from "./changes.ts";
export { type CopyTarget, directoryTarget } from "./copy_target.ts";
export { objectTarget, type ObjectTargetOptions } from "./object_target.ts";
export { copyTarget, isObjectLocation, singleWriterSaid } from "./target_at.ts";
export {
  DEFAULT_REFRESH_MS,
  type ObjectStore,
  type ObjectStoreOptions,
  openObjectStore,
  openObjectStoreNode,
} from "./object_store.ts";
export { journalKey, journalPrefix, manifestKey, partKey, projectKey, versionOfJournalKey } from "./object_layout.ts";
