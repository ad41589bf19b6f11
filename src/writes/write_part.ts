/**
 * Writing a part: records in, one content-addressed Parquet file out, with
 * small row groups (so data pages stay cheap) and, when asked, the rows of
 * previous small parts folded in first. The file is written under a
 * temporary name, fsynced, hashed and renamed to `<sha256>.parquet`.
 *
 * @module
 */
import type { DuckDBAppender } from "@duckdb/node-api";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type ExactJson, type SchemaDef, stableStringify } from "../wire/mod.ts";
import { EXTRA_COLUMN, type ReadEngine, sqlIdent, sqlString } from "../parquet/mod.ts";

/** Rows per Parquet row group of the parts the node writes (see docs/benchmarks.md). */
export const PART_ROW_GROUP = 10_240;

/** A part as written. */
export interface WrittenPart {
  /** Lowercase SHA-256 hex of the file. */
  sha256: string;
  /** Its size. */
  bytes: number;
  /** Records in it. */
  records: number;
}

const SQL_TYPES: Record<string, string> = {
  string: "VARCHAR",
  integer: "BIGINT",
  number: "DOUBLE",
  boolean: "BOOLEAN",
};

function appendValue(appender: DuckDBAppender, type: string, value: ExactJson | undefined): void {
  if (value === null || value === undefined) return appender.appendNull();
  switch (type) {
    case "string":
      return appender.appendVarchar(value as string);
    case "integer":
      return appender.appendBigInt(BigInt(value as number | bigint));
    case "number":
      return appender.appendDouble(Number(value));
    case "boolean":
      return appender.appendBoolean(value as boolean);
  }
  throw new Error(`unknown field type ${type}`);
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Uint8Array);
  return hash.digest("hex");
}

/**
 * Writes `records` (already checked against `schema`) as one part in
 * `partsDir`, after the rows of the parts at `foldPaths` (in order), whose
 * `foldRecords` records it takes over.
 */
export async function writePart(
  engine: ReadEngine,
  partsDir: string,
  schema: SchemaDef,
  records: Record<string, ExactJson>[],
  foldPaths: string[],
  foldRecords: number,
): Promise<WrittenPart> {
  await mkdir(partsDir, { recursive: true });
  // The temporary is made in the project's index folder, where the sweep after a crash looks; the parts folder,
  // which may hold many thousands of files, is never listed for it.
  const temps = join(dirname(partsDir), "index");
  await mkdir(temps, { recursive: true });
  const table = `batch_${randomUUID().replaceAll("-", "")}`;
  const names = new Set(schema.fields.map((f) => f.name));
  const columns = schema.fields.map((f) => `${sqlIdent(f.name)} ${SQL_TYPES[f.type]}`);
  if (schema.allowExtra) columns.push(`${sqlIdent(EXTRA_COLUMN)} VARCHAR`);
  const temp = join(temps, `.part.tmp-${randomUUID()}.parquet`);
  const session = await engine.session();
  try {
    return await session.run(async (connection) => {
      try {
        await connection.run(`CREATE TABLE ${table} (${columns.join(", ")})`);
        const appender = await connection.createAppender(table);
        for (const record of records) {
          for (const field of schema.fields) {
            // Own fields only: a record without `toString` must not hand DuckDB Object.prototype's.
            appendValue(appender, field.type, Object.hasOwn(record, field.name) ? record[field.name] : undefined);
          }
          if (schema.allowExtra) {
            const extra = Object.fromEntries(Object.entries(record).filter(([k]) => !names.has(k)));
            if (Object.keys(extra).length > 0) appender.appendVarchar(stableStringify(extra));
            else appender.appendNull();
          }
          appender.endRow();
        }
        appender.flushSync();
        appender.closeSync();
        const folded = `[${foldPaths.map(sqlString).join(", ")}]`;
        const source = foldPaths.length > 0
          ? `SELECT * FROM read_parquet(${folded}, union_by_name = true) UNION ALL BY NAME SELECT * FROM ${table}`
          : `SELECT * FROM ${table}`;
        await connection.run(
          `COPY (${source}) TO ${sqlString(temp)} (FORMAT parquet, ROW_GROUP_SIZE ${PART_ROW_GROUP})`,
        );
        const handle = await open(temp, "r+");
        await handle.sync();
        await handle.close();
        const sha256 = await sha256File(temp);
        const path = join(partsDir, `${sha256}.parquet`);
        await rename(temp, path);
        return { sha256, bytes: (await stat(path)).size, records: foldRecords + records.length };
      } catch (e) {
        await unlink(temp).catch(() => {});
        throw e;
      } finally {
        await connection.run(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
      }
    });
  } finally {
    await session.close();
  }
}
