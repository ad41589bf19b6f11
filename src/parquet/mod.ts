/**
 * Reading Parquet parts: pages by row range and whole-version exports, on the
 * node's own in-process DuckDB.
 *
 * @module
 */
export { openReadEngine, type ReadEngine, type ReadEngineOptions, sqlIdent, sqlString } from "./_duckdb.ts";
export { type ExportOptions, gzipJsonLines, jsonLines } from "./export.ts";
export { type BigIntForm, columnWriter, float32Text, valueText } from "./json_text.ts";
export { type CachedGroup, cachedGroup, type CachedGroupOptions } from "./cached_group.ts";
export { type PageCache, pageCache, type PageCacheOptions, type PageCacheStats } from "./page_cache.ts";
export { cachedRecords, type PageReader, pageReader, type PageReaderOptions, partSliceSql } from "./pages.ts";
export { EXTRA_COLUMN, recordEncoder } from "./rows.ts";
export { orderable, type SortKey, sortOrder } from "./sort_order.ts";
export { ReadCopyError, writeReadCopy } from "./read_copy.ts";
export { keepable, type KeptColumn, MAX_KEPT_DISTINCT, readKeptColumn } from "./kept_column.ts";
export { type KeptCounts, keptCounts, keptView } from "./kept_counts.ts";
export {
  DOWNLOAD_FOLDER_PREFIX,
  type DownloadFormat,
  type ParquetFile,
  type ParquetFileOptions,
  type ParquetWriters,
  parquetWriters,
  resultParquet,
  type ResultRows,
  resultText,
  type Slice,
  type TextFormat,
  viewParquet,
  viewText,
  WRITER_FOLDER_PREFIX,
} from "./view_download.ts";
export {
  APPROXIMATE_FIGURES,
  type ColumnKind,
  columnKind,
  columnStatistics,
  HISTOGRAM_BINS,
  statisticsText,
  TOP_VALUE_CHARS,
  TOP_VALUES,
  type VersionStatistics,
} from "./statistics.ts";
export {
  type CachedRecords,
  type ColumnFilter,
  type Facet,
  type FacetsAndTotal,
  type FilterOp,
  findViewColumn,
  spelledAsColumns,
  type ViewColumn,
  viewColumns,
  ViewError,
  viewFacets,
  viewFacetsAndTotal,
  type ViewPage,
  viewPage,
  type ViewShape,
  viewShape,
  type ViewSpec,
  withoutIdleFilters,
} from "./view.ts";
