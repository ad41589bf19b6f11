/**
 * The node's typed services, which its HTTP routes, its MCP tools and the
 * local commands all call: the projects, a page of records, a manifest, SQL
 * over a version, the writes, health; and the state they run on.
 *
 * @module
 */
export { type Failure, failureOf, INTERNAL_MESSAGE } from "./failure.ts";
export { type Served, type ServiceOf, serviceOf, SERVICES, type ServiceTable } from "./operations.ts";
export { healthOf, sandboxWalls } from "./health.ts";
export { type Turns, turns } from "./turns.ts";
export {
  COLLECT_AFTER_MS,
  type IdleRecord,
  idleRecord,
  type IdleTrim,
  idleTrim,
  memoryHealth,
  type MemoryView,
  TRIM_AFTER_MAX_MS,
  TRIM_AFTER_MS,
} from "./memory.ts";
export { type MemoryGate, memoryGate, type MemoryGateOptions, WAIT_MOST_MS, WAITING_MOST } from "./memory_gate.ts";
export { type NodeMetrics, nodeMetrics, type SqlOutcome } from "./metrics.ts";
export { metricsText } from "./metrics_scrape.ts";
export { readinessOf } from "./readiness.ts";
export { type ManifestRequest, manifestText, type VersionManifest, versionManifest } from "./manifest.ts";
export { DEFAULT_PAGE, MAX_PAGE, type PageRequest, readPage } from "./pages.ts";
export {
  type DownloadBody,
  type DownloadState,
  PARQUET_AT_ONCE,
  PARQUET_WAIT_MS,
  type QueryDownload,
  queryDownload,
  viewDownload,
  type ViewDownloadRequest,
} from "./downloads.ts";
export {
  type AddedRecords,
  addedRecords,
  DEFAULT_DIFF,
  type DiffFragment,
  type DiffRequest,
  MAX_DIFF,
  versionDiff,
} from "./diff.ts";
export {
  FACET_SIZE,
  MAX_FACETS,
  MAX_FILTERS,
  MAX_IN,
  MAX_VALUE,
  readView,
  shapeOf,
  type ViewRequest,
} from "./views.ts";
export { type StatisticsState, versionStatistics } from "./statistics.ts";
export { PART_URL_LIFETIME_S, partSignature, partSignatureValid, signPartQuery } from "./part_url.ts";
export { projectDetail, projectEntry, projectList, type ProjectsState } from "./projects.ts";
export { checkStatement, type QueryRequest, type QueryState, queryVersion } from "./query.ts";
export { type FollowView, type LogSink, type NodeLog, nodeLog, type NodeState } from "./state.ts";
export { type CountSource, type ReadCopies, readCopies } from "./read_copies.ts";
export { KEPT_COLUMNS_SHARE, type KeptColumns, keptColumns } from "./kept_columns.ts";
export {
  type HeldVersion,
  holdVersion,
  NO_VERSION_YET,
  projectNotFound,
  requireProject,
  withVersion,
} from "./versions.ts";
export {
  checkContribution,
  contributeRecords,
  type ContributionBody,
  type ContributionSender,
  contributionStatus,
  createProject,
  MAX_BATCH_BYTES,
  MAX_RECORDS,
  refuseOnReadOnly,
} from "./writes.ts";
