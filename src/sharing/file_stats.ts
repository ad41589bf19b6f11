/**
 * What Delta Sharing says of a table's files and columns, read from the
 * Parquet footers through the node's DuckDB (no data is scanned) and kept:
 * a part never changes, and neither does a version's column list.
 *
 * @module
 */
import { type ReadEngine, sqlString, viewShape } from "../parquet/mod.ts";

/** Per-file statistics as the protocol's `stats` JSON holds them. */
export interface FileStats {
  /** Records in the file. */
  numRecords: number;
  /** Smallest value per column, where the footer says and the type compares as JSON does. */
  minValues: Record<string, unknown>;
  /** Largest value per column, likewise. */
  maxValues: Record<string, unknown>;
  /** Nulls per column, where the footer says. */
  nullCount: Record<string, number>;
}

/** A column of a version: its name and DuckDB type. */
export interface Column {
  /** The column's name. */
  name: string;
  /** DuckDB's name of its type (`BIGINT`, `VARCHAR`, ...). */
  type: string;
}

const NUMERIC = new Set([
  "BIGINT",
  "INTEGER",
  "SMALLINT",
  "TINYINT",
  "UINTEGER",
  "USMALLINT",
  "UTINYINT",
  "DOUBLE",
  "FLOAT",
]);

/** One row group's figures of one column, as a part's footer holds them. */
export interface FooterRow {
  column: string;
  rowGroup: string;
  rows: string;
  min: string | null;
  max: string | null;
  nulls: string | null;
}

function typedValue(text: string, type: string): unknown {
  if (NUMERIC.has(type)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : undefined;
  }
  if (type === "BOOLEAN") return text === "true" ? true : text === "false" ? false : undefined;
  if (type === "VARCHAR") return text;
  return undefined;
}

function statsFrom(rows: FooterRow[], types: ReadonlyMap<string, string>): FileStats {
  const groups = new Map<string, number>();
  const byColumn = new Map<string, FooterRow[]>();
  for (const row of rows) {
    groups.set(row.rowGroup, Number(row.rows));
    if (!types.has(row.column)) continue; // nested leaves (a.b) have no top-level statistics here
    byColumn.set(row.column, [...(byColumn.get(row.column) ?? []), row]);
  }
  const stats: FileStats = {
    numRecords: [...groups.values()].reduce((a, n) => a + n, 0),
    minValues: {},
    maxValues: {},
    nullCount: {},
  };
  for (const [column, list] of byColumn) {
    const type = types.get(column)!;
    if (list.every((r) => r.nulls !== null)) stats.nullCount[column] = list.reduce((a, r) => a + Number(r.nulls), 0);
    const mins = list.map((r) => r.min === null ? undefined : typedValue(r.min, type));
    const maxes = list.map((r) => r.max === null ? undefined : typedValue(r.max, type));
    if (mins.every((v) => v !== undefined)) stats.minValues[column] = mins.reduce((a, b) => (b! < a! ? b : a));
    if (maxes.every((v) => v !== undefined)) stats.maxValues[column] = maxes.reduce((a, b) => (b! > a! ? b : a));
  }
  return stats;
}

/** Reads and keeps the statistics of parts and the columns of versions. */
export interface FooterReader {
  /** The statistics of `parts`, in order; the footers not read yet are read in one query. */
  statsOf(parts: readonly { sha256: string; path: string }[], columns: readonly Column[]): Promise<FileStats>[];
  /** The columns of the parts at `paths` (by name, in first-seen order), kept under `key`. */
  columns(key: string, paths: readonly string[]): Promise<Column[]>;
}

/**
 * Where footers read before are kept (see `kept_footers.ts`): asked first for
 * parts not in memory, and told of footers read from the parts; the same for
 * the columns of a set of parts.
 */
export interface FooterStore {
  /** The footer rows of each part of `parts` kept, by path (parts not kept left out). */
  rows(parts: readonly { sha256: string; path: string }[]): Promise<Map<string, FooterRow[]>>;
  /** Keeps the footer rows of parts just read, by path. */
  keepRows(parts: readonly { sha256: string; path: string }[], rows: Map<string, FooterRow[]>): void;
  /** The columns kept for the parts at `paths`, or null. */
  columns(paths: readonly string[]): Promise<Column[] | null>;
  /** Keeps the columns of the parts at `paths`, read from them. */
  keepColumns(paths: readonly string[], columns: Column[]): void;
}

/** How many parts' statistics and versions' columns are kept. */
const KEPT = 20_000;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/**
 * A footer reader over the node's read engine (built once per node).
 *
 * @example
 * ```ts
 * import { footerReader } from "./file_stats.ts";
 * import { openReadEngine } from "../parquet/mod.ts";
 *
 * const engine = await openReadEngine(await Deno.makeTempDir());
 * console.log(await footerReader(engine).columns("empty", [])); // []
 * await engine.close();
 * ```
 */
export function footerReader(engine: ReadEngine, kept: FooterStore | null = null): FooterReader {
  const stats = new Map<string, Promise<FileStats>>();
  const columns = new Map<string, Promise<Column[]>>();
  function statsOf(parts: readonly { sha256: string; path: string }[], cols: readonly Column[]): Promise<FileStats>[] {
    const found = new Map<string, Promise<FileStats>>();
    for (const p of parts) {
      const known = stats.get(p.sha256);
      if (known) found.set(p.sha256, known);
    }
    const missing = parts.filter((p) => !found.has(p.sha256));
    if (missing.length > 0) {
      const types = new Map(cols.map((c) => [c.name, c.type.toUpperCase()]));
      // Kept footers first; one query reads every other: a thousand parts cost one scan of their footers.
      const reading = (async () => {
        const byFile = await kept?.rows(missing).catch(() => null) ?? new Map<string, FooterRow[]>();
        const unread = missing.filter((p) => !byFile.has(p.path));
        if (unread.length === 0) return byFile;
        const read = await readFooters(engine, unread);
        kept?.keepRows(unread, read);
        for (const [path, rows] of read) byFile.set(path, rows);
        return byFile;
      })();
      for (const p of missing) {
        const one = reading.then((byFile) => statsFrom(byFile.get(p.path) ?? [], types));
        one.catch(() => stats.delete(p.sha256));
        found.set(p.sha256, remember(stats, p.sha256, one));
      }
    }
    return parts.map((p) => found.get(p.sha256)!);
  }
  return {
    statsOf,
    columns(key, paths) {
      const known = columns.get(key);
      if (known) return known;
      if (paths.length === 0) return Promise.resolve([]);
      const reading = (async () => {
        const found = await kept?.columns(paths).catch(() => null);
        if (found) return found;
        const shape = await viewShape(engine, paths);
        // Every part's own columns only when the parts all have the same.
        if (shape.uniform) kept?.keepColumns(paths, shape.columns);
        return shape.columns;
      })();
      reading.catch(() => columns.delete(key));
      return remember(columns, key, reading);
    },
  };
}

/** The footer rows of `parts`, read in one query (a thousand parts cost one scan of their footers), by path. */
async function readFooters(
  engine: ReadEngine,
  parts: readonly { path: string }[],
): Promise<Map<string, FooterRow[]>> {
  const list = `[${parts.map((p) => sqlString(p.path)).join(", ")}]`;
  return await engine.use(async (c) => {
    const reader = await c.runAndReadAll(
      `SELECT file_name AS file, path_in_schema AS "column", row_group_id::VARCHAR AS "rowGroup",
             row_group_num_rows::VARCHAR AS rows, stats_min_value AS min, stats_max_value AS max,
             stats_null_count::VARCHAR AS nulls
           FROM parquet_metadata(${list})`,
    );
    const byFile = new Map<string, FooterRow[]>();
    for (const row of reader.getRowObjectsJson() as unknown as (FooterRow & { file: string })[]) {
      const { file, ...figures } = row;
      const rows = byFile.get(file);
      if (rows) rows.push(figures);
      else byFile.set(file, [figures]);
    }
    return byFile;
  });
}
