/**
 * Delta Sharing over the node's datasets: the share, its schema and tables,
 * versions and time travel, table metadata as Spark's schema, file lines
 * with statistics, page tokens, predicates for skipping files, and
 * recipients (tokens that read the shares and nothing else).
 *
 * @module
 */
export { type ChangeFile, changeFiles, changeLines, type ChangeRange, versionsInRange } from "./changes.ts";
export { SharingError, sharingErrorCode } from "./errors.ts";
export type {
  DeltaFile,
  DeltaMetadata,
  EndStreamLine,
  FileLine,
  MetadataLine,
  ParquetFile,
  ParquetMetadata,
  ProtocolLine,
  SharingLine,
} from "./lines.ts";
export { capabilitiesOf, formatOf, type QueryTableRequest, queryTableRequest, versionParam } from "./request.ts";
export {
  type Column,
  type ColumnFacts,
  type FileFacts,
  type FileStats,
  type FooterReader,
  footerReader,
  type FooterRow,
  type FooterStore,
} from "./file_stats.ts";
export { keptFooters } from "./kept_footers.ts";
export {
  MAX_RESULTS,
  maxResultsOf,
  type Page,
  type PageKey,
  pageKeyFor,
  pageOf,
  pageOffset,
  pageToken,
} from "./paging.ts";
export { type Literal, mayMatch, parseJsonPredicate, parseSqlPredicate, type Predicate } from "./predicates.ts";
export {
  type ColumnKind,
  columnKind,
  compareExact,
  compareUtf8,
  dayOf,
  type ExactNumber,
  exactNumber,
  instantOf,
} from "./stat_order.ts";
export {
  FILE_URL_LIFETIME_S,
  type FileLines,
  fileLines,
  type FileQuery,
  fileUrl,
  metadataLine,
  protocolLine,
  type ResponseFormat,
  type TableMetadata,
  tableMetadata,
  type TableReadContext,
} from "./query.ts";
export {
  addRecipient,
  listRecipients,
  type NewRecipient,
  type Recipient,
  RECIPIENT_NAME,
  type RecipientBook,
  recipientBook,
  recipientsFile,
  removeRecipient,
} from "./recipients.ts";
export { type SparkField, sparkSchemaString, type SparkType, sparkType } from "./spark_schema.ts";
export {
  DEFAULT_SHARE_NAME,
  firstHeldWhere,
  parseTimestamp,
  requireSchema,
  requireShare,
  requireTable,
  SCHEMA_NAME,
  sharedProjects,
  type SharingState,
  stableId,
  tableId,
  tableVersion,
  versionAsOf,
  versionFrom,
  versionTime,
} from "./tables.ts";
