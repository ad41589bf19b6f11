/**
 * A node over projects of unusual column types, for the data-page tests.
 *
 * @module
 */
import { serveNode } from "../../server.ts";
import { StoreWriter, tempDir } from "../support/store_fixture.ts";

const TYPED = `SELECT * FROM (VALUES
  (1, 9007199254740993::BIGINT, (-9223372036854775807 - 1)::BIGINT, 0.1::FLOAT, 0.1::DOUBLE + 0.2::DOUBLE,
   12345.67::DECIMAL(10,2), DATE '2026-11-22', TIMESTAMP '2026-11-22 03:04:05.123456', '\\x00\\xFF\\x10'::BLOB,
   [1, 2, 3], {'a': 1, 'b': 'x'}, true, 'quote " backslash \\ newline ' || chr(10) || ' unicode é😀', 'NaN'::DOUBLE),
  (2, 5::BIGINT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
) t(id, big, small, f32, f64, dec, day, "at", blob, list, obj, flag, s, nan)`;

const EXTRA = `SELECT * FROM (VALUES
  (1, 'a', '{"color":"red","huge":123456789012345678901}'),
  (2, 'b', '{}'),
  (3, 'c', '{"nested":{"k":[1,2]}}'),
  (4, 'd', NULL)
) t(id, name, _extra)`;

/**
 * Runs `fn` with a store holding `typed`, `extra`, `many` (1,000 rows in 4
 * parts of row groups of 7, 64, 1 and DuckDB's default) and `rownum` (whose
 * records have a `file_row_number` field).
 */
export async function withTypedStore(fn: (root: string) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  const w = new StoreWriter(dir.path);
  try {
    await w.version("typed", 1, { parts: [{ sql: TYPED }] });
    await w.version("extra", 1, { parts: [{ sql: EXTRA }] });
    const many = (from: number, n: number) => `SELECT (${from} + i)::BIGINT AS id FROM range(${n}) r(i)`;
    await w.version("many", 1, {
      parts: [
        { sql: many(0, 100), rowGroupSize: 7 },
        { sql: many(100, 500), rowGroupSize: 64 },
        { sql: many(600, 1), rowGroupSize: 1 },
        { sql: many(601, 399) },
      ],
    });
    await w.version("rownum", 1, {
      parts: [{
        sql: `SELECT i::BIGINT AS id, (1000 - i)::BIGINT AS file_row_number FROM range(300) r(i)`,
        rowGroupSize: 50,
      }],
    });
    w.close();
    await fn(dir.path);
  } finally {
    w.close();
    await dir.cleanup();
  }
}

/**
 * Runs `fn` with the URL of a node serving {@linkcode withTypedStore}'s
 * projects, with the page cache of `pageCache` bytes (default: the node's).
 */
export async function withTypedNode(fn: (url: string) => Promise<void>, pageCache?: number): Promise<void> {
  await withTypedStore(async (root) => {
    const serving = await serveNode({ store: root, host: "127.0.0.1", port: 0, token: null, pageCache });
    try {
      await fn(serving.url);
    } finally {
      await serving.shutdown();
    }
  });
}

/** Part `k` of 40 records of many types, nulls among them. */
export function typedPartSql(k: number): string {
  const id = `(${k * 40} + i)`;
  return `SELECT ${id}::BIGINT AS id, 'c-' || (${id} % 7) AS country, ` +
    `CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (i % 3) END AS note, ` +
    `(${id} * 0.25)::DECIMAL(10,2) AS price, (${id} / 3)::FLOAT AS ratio, ` +
    `DATE '2026-01-01' + (i % 9)::INTEGER AS day, TIMESTAMP '2026-01-01' + INTERVAL (i % 4) HOUR AS at, ` +
    `TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL (i % 2) MINUTE AS at_tz, (i % 2 = 0) AS flag, ` +
    `('00000000-0000-0000-0000-00000000000' || (i % 10))::UUID AS uid, [i % 3, i % 4]::INTEGER[] AS tags, ` +
    `{'a': i % 2, 'b': 'x' || i}::STRUCT(a INTEGER, b VARCHAR) AS obj, ('\\x0' || (i % 8))::BLOB AS raw, ` +
    `(i % 200)::UTINYINT AS small, (${id} * 1000000007)::HUGEINT AS huge FROM range(40) r(i)`;
}
