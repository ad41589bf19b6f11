/**
 * Pages of records by row range. A page reads only the parts it overlaps, and
 * within a part it selects rows by `file_row_number`, whose row-group
 * statistics let DuckDB skip every row group outside the range, so a page
 * deep in a version costs about what the first page costs.
 *
 * @module
 */
import type { StoredVersion } from "../store/store.ts";
import { type ReadEngine, sqlString } from "./_duckdb.ts";
import { recordEncoder } from "./rows.ts";

/** Reads pages of records from the parts of whole versions. */
export interface PageReader {
  /**
   * Records `offset` to `offset + limit` of `version`, each as JSON text, in
   * part order then row order.
   */
  page(version: StoredVersion, offset: number, limit: number): Promise<string[]>;
  /** Records in each part of `version`, read from the Parquet metadata. */
  partRecords(version: StoredVersion): Promise<number[]>;
}

/**
 * The query for rows `from` to `from + want` of one part, by row number, so
 * that DuckDB reads only the row groups that hold them.
 *
 * @example
 * ```ts
 * import { partSliceSql } from "./pages.ts";
 * partSliceSql("/store/cities/parts/ab.parquet", 400, 200);
 * ```
 */
export function partSliceSql(path: string, from: number, want: number): string {
  return `SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(path)}, file_row_number = true) ` +
    `WHERE file_row_number >= ${from} AND file_row_number < ${from + want} ORDER BY file_row_number`;
}

/**
 * A page reader over `engine`. Row counts are read from each part's Parquet
 * footer once and kept by digest (parts are immutable).
 *
 * @example
 * ```ts ignore
 * const pages = pageReader(engine);
 * const records = await pages.page(version, 400, 200);
 * ```
 */
export function pageReader(engine: ReadEngine): PageReader {
  const counts = new Map<string, number>();

  async function partRecords(version: StoredVersion): Promise<number[]> {
    const missing = version.parts.filter((p) => !counts.has(p.sha256));
    if (missing.length > 0) {
      const list = missing.map((p) => sqlString(p.path)).join(", ");
      await engine.use(async (c) => {
        const reader = await c.runAndReadAll(
          `SELECT file_name, num_rows FROM parquet_file_metadata([${list}])`,
        );
        const byPath = new Map(reader.getRows().map(([f, n]) => [String(f), Number(n)]));
        for (const p of missing) {
          const n = byPath.get(p.path);
          if (n !== undefined) counts.set(p.sha256, n);
        }
      });
    }
    return version.parts.map((p) => counts.get(p.sha256) ?? 0);
  }

  /** Parts whose own schema has a `file_row_number` column: they page by LIMIT/OFFSET. */
  const ownRowNumber = new Set<string>();

  async function slice(path: string, sha256: string, from: number, want: number): Promise<string[]> {
    const byRowNumber = partSliceSql(path, from, want);
    const byOffset = `SELECT * FROM read_parquet(${sqlString(path)}) LIMIT ${want} OFFSET ${from}`;
    return await engine.use(async (c) => {
      let result;
      if (ownRowNumber.has(sha256)) {
        result = await c.run(byOffset);
      } else {
        try {
          result = await c.run(byRowNumber);
        } catch (e) {
          if (!/file_row_number/i.test(String((e as Error)?.message))) throw e;
          ownRowNumber.add(sha256);
          result = await c.run(byOffset);
        }
      }
      const encode = recordEncoder(result);
      const texts: string[] = [];
      for (const chunk of await result.fetchAllChunks()) texts.push(...encode(chunk));
      return texts;
    });
  }

  return {
    partRecords,
    async page(version, offset, limit) {
      const sizes = await partRecords(version);
      const out: string[] = [];
      let start = 0;
      for (let i = 0; i < sizes.length && out.length < limit; i++) {
        const end = start + sizes[i];
        if (offset < end) {
          const from = Math.max(0, offset - start);
          const want = Math.min(limit - out.length, sizes[i] - from);
          const part = version.parts[i];
          out.push(...await slice(part.path, part.sha256, from, want));
        }
        start = end;
      }
      return out;
    },
  };
}
