/**
 * One Parquet file holding the records of many parts, in their order: what
 * the node counts a version of many small parts from. DuckDB pays for every
 * file a statement reads, above its records: under the node's lock each
 * file's path is made canonical three times (a `readlink` a folder of it),
 * and the file is opened twice and its footer looked up, about 0.1 ms a part.
 * Counting 1,000,000 records took 3x as long over 200 parts as over one file
 * (docs/benchmarks.md, "facets").
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { rename, rm, stat } from "node:fs/promises";
import { type ReadEngine, sqlString } from "./_duckdb.ts";
import { readAll, runOne } from "./_statement.ts";
import type { ViewColumn } from "./_view_sql.ts";

/** Why a copy was not kept: it did not read back as the parts it copies. */
export class ReadCopyError extends Error {}

/**
 * Writes the records of the parts at `paths` (every one of exactly
 * `columns`, in that order) into one Parquet file at `target`, in the
 * engine's scratch folder, and returns its size in bytes. The file appears
 * whole or not at all: it is written beside `target`, read back (the same
 * columns of the same types, as many records as the parts hold) and only
 * then renamed into place.
 *
 * @example
 * ```ts ignore
 * import { writeReadCopy } from "./read_copy.ts";
 * const bytes = await writeReadCopy(engine, paths, shape.columns, `${engine.scratch}/copy-ab12.parquet`);
 * ```
 */
export async function writeReadCopy(
  engine: ReadEngine,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  target: string,
): Promise<number> {
  const writing = `${target}.${randomUUID()}.writing`;
  const parts = `read_parquet([${paths.map(sqlString).join(", ")}])`;
  const copy = `read_parquet(${sqlString(writing)})`;
  try {
    await engine.use(async (c) => {
      await runOne(c, `COPY (SELECT * FROM ${parts}) TO ${sqlString(writing)} (FORMAT parquet, COMPRESSION zstd)`);
      const described = (await readAll(c, `DESCRIBE SELECT * FROM ${copy}`))
        .getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
      if (JSON.stringify(described) !== JSON.stringify(columns.map(({ name, type }) => ({ name, type })))) {
        throw new ReadCopyError(`the copy's columns are not the parts': ${JSON.stringify(described)}`);
      }
      const counts = (await readAll(
        c,
        `SELECT (SELECT count(*) FROM ${parts})::BIGINT, (SELECT count(*) FROM ${copy})::BIGINT`,
      )).getRows()[0].map(Number);
      if (counts[0] !== counts[1]) {
        throw new ReadCopyError(`the copy holds ${counts[1]} records of the parts' ${counts[0]}`);
      }
    });
    await rename(writing, target);
    return (await stat(target)).size;
  } catch (e) {
    await rm(writing, { force: true });
    throw e;
  }
}
