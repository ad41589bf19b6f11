/**
 * The store: layout, `project.json`, versions (one typed model, one
 * writer), the part stack and provenance of local projects, and the versions
 * readers may see; on disk, or in an S3-compatible bucket (read by nodes that
 * keep only the parts they read, written by pulls, loads and followers).
 *
 * @module
 */
export { syncDir, writeFileAtomic } from "./atomic.ts";
export { orderFile, readOrder, writeOrder } from "./order_file.ts";
export { commitVersion } from "./commit_version.ts";
export {
  type ContributionView,
  IDEMPOTENCY_WINDOW_MS,
  isContributionId,
  readContribution,
  readIdempotency,
  rememberIdempotency,
  writeContribution,
} from "./contributions.ts";
export { DISK_FULL_MESSAGE, isDiskFull } from "./disk_full.ts";
export {
  createExportCache,
  DEFAULT_EXPORT_CACHE_BYTES,
  EXPORT_GZIP_LEVEL,
  type ExportCache,
  exportTag,
} from "./export_cache.ts";
export { appendIdentities, readIdentityIndex, writeIdentityIndex } from "./identity_index.ts";
export { DEFAULT_STORE, manifestFile, partFile, projectDir, projectFile } from "./layout.ts";
export { LockTimeout, withProjectLock } from "./lock.ts";
export {
  manifestChunks,
  type PlacedPart,
  type PublishedVersion,
  publishManifest,
  type PublishOptions,
} from "./manifest.ts";
export { type PartSource, type ProvenanceEntry, provenanceLog } from "./provenance.ts";
export { readProjectMeta } from "./project_file.ts";
export {
  leaseParts,
  promiseParts,
  prune,
  pruneLocked,
  pruneReported,
  sweepIndex,
  sweepProject,
  withLease,
} from "./retention.ts";
export { readStatistics, writeStatistics } from "./statistics_file.ts";
export { openStore, type ProjectState, type Store, type StoredVersion } from "./store.ts";
export {
  BOOKKEEPING_KEYS,
  copyOf,
  type CopyVersion,
  type ListedPart,
  type MergeOrigin,
  parseVersion,
  type Version,
  versionDocument,
} from "./version.ts";
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
