/**
 * Pages of records by row range. A page reads only the parts it overlaps, and
 * within a part DuckDB skips to the row group it needs, so a page deep in a
 * version costs about what the first page costs.
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
          const sql = `SELECT * FROM read_parquet(${sqlString(version.parts[i].path)}) LIMIT ${want} OFFSET ${from}`;
          const rows = await engine.use(async (c) => {
            const result = await c.run(sql);
            const encode = recordEncoder(result);
            const texts: string[] = [];
            for (const chunk of await result.fetchAllChunks()) texts.push(...encode(chunk));
            return texts;
          });
          out.push(...rows);
        }
        start = end;
      }
      return out;
    },
  };
}
