/**
 * What Delta Sharing says of a table's files and columns, read from the
 * Parquet footers through the node's DuckDB (no data is scanned) and kept:
 * a part never changes, and neither does a version's column list.
 *
 * @module
 */
import { type ReadEngine, sqlString, viewShape } from "../parquet/mod.ts";
import {
  type ColumnKind,
  columnKind,
  compareExact,
  compareUtf8,
  dayOf,
  type ExactNumber,
  exactNumber,
  instantOf,
} from "./stat_order.ts";

/** Per-file statistics as the protocol's `stats` JSON holds them. */
export interface FileStats {
  /** Records in the file. */
  numRecords: number;
  /** Smallest value per column, where the footer says and the type compares as JSON does (big integers as `bigint`). */
  minValues: Record<string, unknown>;
  /** Largest value per column, likewise. */
  maxValues: Record<string, unknown>;
  /** Nulls per column, where the footer says. */
  nullCount: Record<string, number>;
}

/** What one file's footer says of one column, as written: its kind, bounds and nulls. */
export interface ColumnFacts {
  /** How its values are ordered; null when its statistics are not compared. */
  kind: ColumnKind | null;
  /** The smallest value's text (over every row group), or null when a row group does not say. */
  min: string | null;
  /** The largest value's text, likewise. */
  max: string | null;
  /** Nulls in the file, or null when a row group does not say. */
  nulls: number | null;
}

/** What skipping a file by its statistics reads: its records and its columns' facts. */
export interface FileFacts {
  /** Records in the file. */
  numRecords: number;
  /** Per top-level column. */
  columns: Map<string, ColumnFacts>;
}

/** A column of a version: its name and DuckDB type. */
export interface Column {
  /** The column's name. */
  name: string;
  /** DuckDB's name of its type (`BIGINT`, `VARCHAR`, ...). */
  type: string;
}

/** One row group's figures of one column, as a part's footer holds them. */
export interface FooterRow {
  column: string;
  rowGroup: string;
  rows: string;
  min: string | null;
  max: string | null;
  nulls: string | null;
}

/** A statistic's text read in its kind's order (null: it does not read), and that order. */
const ORDERS: Readonly<Record<ColumnKind, { read(t: string): unknown; compare(a: unknown, b: unknown): number }>> =
  (() => {
    const natural = (
      a: unknown,
      b: unknown,
    ) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);
    const exact = {
      read: exactNumber,
      compare: (a: unknown, b: unknown) => compareExact(a as ExactNumber, b as ExactNumber),
    };
    const float = {
      read: (t: string) => (exactNumber(t) !== null && Number.isFinite(Number(t)) ? Number(t) : null),
      compare: natural,
    };
    const instant = { read: (t: string) => instantOf(t)?.ns ?? null, compare: natural };
    return {
      int: exact,
      decimal: exact,
      float,
      double: float,
      string: { read: (t: string) => t, compare: (a: unknown, b: unknown) => compareUtf8(a as string, b as string) },
      bool: { read: (t: string) => (t === "true" ? true : t === "false" ? false : null), compare: natural },
      date: { read: dayOf, compare: natural },
      timestamp: instant,
      timestamptz: instant,
    };
  })();

/** The extreme (`sign` -1: smallest, 1: largest) of `texts` in `kind`'s order; null when one is missing or does not read. */
function extreme(kind: ColumnKind | null, texts: (string | null)[], sign: -1 | 1): string | null {
  if (kind === null || texts.length === 0) return null;
  const order = ORDERS[kind];
  let best: { text: string; value: unknown } | null = null;
  for (const text of texts) {
    const value = text === null ? null : order.read(text);
    if (text === null || value === null) return null;
    if (best === null || order.compare(value, best.value) * sign > 0) best = { text, value };
  }
  return best!.text;
}

/** A bound as the protocol's JSON carries it, or undefined where it carries none. */
function wireValue(kind: ColumnKind | null, text: string): unknown {
  switch (kind) {
    case "int": {
      if (!/^-?\d+$/.test(text)) return undefined;
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : BigInt(text); // exact: a rounded bound could make a reader skip a match
    }
    case "float":
    case "double":
      return ORDERS.double.read(text) ?? undefined;
    case "bool":
      return ORDERS.bool.read(text) ?? undefined;
    case "string":
      return text;
  }
  return undefined;
}

/** One file's footer, read: what the protocol says of it and what skipping reads. */
interface Footer {
  facts: FileFacts;
  stats: FileStats;
}

function factsFrom(rows: FooterRow[], types: ReadonlyMap<string, string>): Footer {
  const groups = new Map<string, number>();
  const byColumn = new Map<string, FooterRow[]>();
  for (const row of rows) {
    groups.set(row.rowGroup, Number(row.rows));
    if (!types.has(row.column)) continue; // nested leaves (a.b) have no top-level statistics here
    const list = byColumn.get(row.column);
    if (list) list.push(row);
    else byColumn.set(row.column, [row]);
  }
  const numRecords = [...groups.values()].reduce((a, n) => a + n, 0);
  const columns = new Map<string, ColumnFacts>();
  const wire = { min: [] as [string, unknown][], max: [] as [string, unknown][], nulls: [] as [string, number][] };
  for (const [column, list] of byColumn) {
    const kind = columnKind(types.get(column)!);
    const nulls = list.every((r) => r.nulls !== null) ? list.reduce((a, r) => a + Number(r.nulls), 0) : null;
    const min = extreme(kind, list.map((r) => r.min), -1);
    const max = extreme(kind, list.map((r) => r.max), 1);
    columns.set(column, { kind, min, max, nulls });
    if (nulls !== null) wire.nulls.push([column, nulls]);
    const [lo, hi] = [min === null ? undefined : wireValue(kind, min), max === null ? undefined : wireValue(kind, max)];
    if (lo !== undefined) wire.min.push([column, lo]);
    if (hi !== undefined) wire.max.push([column, hi]);
  }
  // Built from entries: a column named `__proto__` is then a key like any other.
  const stats: FileStats = {
    numRecords,
    minValues: Object.fromEntries(wire.min),
    maxValues: Object.fromEntries(wire.max),
    nullCount: Object.fromEntries(wire.nulls),
  };
  return { facts: { numRecords, columns }, stats };
}

/** Reads and keeps the statistics of parts and the columns of versions. */
export interface FooterReader {
  /** The statistics of `parts`, in order; the footers not read yet are read in one query. */
  statsOf(parts: readonly { sha256: string; path: string }[], columns: readonly Column[]): Promise<FileStats>[];
  /** What skipping `parts` by statistics reads, in order, from the same footers as {@linkcode FooterReader.statsOf}. */
  factsOf(parts: readonly { sha256: string; path: string }[], columns: readonly Column[]): Promise<FileFacts>[];
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
  const stats = new Map<string, Promise<Footer>>();
  const columns = new Map<string, Promise<Column[]>>();
  function footersOf(parts: readonly { sha256: string; path: string }[], cols: readonly Column[]): Promise<Footer>[] {
    const found = new Map<string, Promise<Footer>>();
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
        const one = reading.then((byFile) => factsFrom(byFile.get(p.path) ?? [], types));
        one.catch(() => stats.delete(p.sha256));
        found.set(p.sha256, remember(stats, p.sha256, one));
      }
    }
    return parts.map((p) => found.get(p.sha256)!);
  }
  return {
    statsOf: (parts, cols) => footersOf(parts, cols).map((f) => f.then((footer) => footer.stats)),
    factsOf: (parts, cols) => footersOf(parts, cols).map((f) => f.then((footer) => footer.facts)),
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
