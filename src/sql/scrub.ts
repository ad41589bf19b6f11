/**
 * Server paths out of text a client will read: DuckDB's errors and some of
 * its table functions (`duckdb_settings()`, `parquet_metadata()`) name the
 * store, the temp directory or the home directory.
 *
 * @module
 */

/** Replaces known server paths in a text. */
export type Scrubber = (text: string) => string;

/**
 * A scrubber replacing each path (longest first) by its label.
 *
 * @example
 * ```ts
 * import { scrubber } from "./scrub.ts";
 * const scrub = scrubber({ "/srv/svc-data": "<store>" });
 * scrub('Cannot open "/srv/svc-data/cities/parts/x.parquet"'); // 'Cannot open "<store>/cities/parts/x.parquet"'
 * ```
 */
export function scrubber(paths: Record<string, string>): Scrubber {
  const pairs = Object.entries(paths)
    .filter(([path]) => path.length > 1)
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    for (const [path, label] of pairs) if (out.includes(path)) out = out.replaceAll(path, label);
    return out;
  };
}
