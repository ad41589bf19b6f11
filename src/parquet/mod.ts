/**
 * Reading Parquet parts: pages by row range and whole-version exports, on the
 * node's own in-process DuckDB.
 *
 * @module
 */
export { openReadEngine, type ReadEngine, sqlIdent, sqlString } from "./_duckdb.ts";
export { gzipJsonLines, jsonLines } from "./export.ts";
export { type BigIntForm, columnWriter, float32Text, valueText } from "./json_text.ts";
export { cachedGroup, type PageCache, pageCache, type PageCacheStats } from "./page_cache.ts";
export { type PageReader, pageReader, type PageReaderOptions, partSliceSql } from "./pages.ts";
export { EXTRA_COLUMN, recordEncoder } from "./rows.ts";
export {
  type ColumnFilter,
  type FilterOp,
  type ViewColumn,
  viewColumns,
  ViewError,
  type ViewPage,
  viewPage,
  type ViewSpec,
} from "./view.ts";
