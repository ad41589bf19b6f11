/**
 * Parts' footers kept on disk, so that a node's first Delta Sharing answer
 * over a version of many parts reads a small file per part instead of
 * asking DuckDB to read every footer again (a thousand parts' footers and
 * columns took 350 ms of a first query): `<project>/footers/<sha256>.json`,
 * beside the project's `parts/`, holding the part's footer rows (its row
 * groups' figures per column, as DuckDB's `parquet_metadata` gives them; the
 * statistics are made from them as ever) and, once known, its columns. A
 * part never changes, so neither does its file; written atomically once, read
 * by every later node. Files of parts a version no longer holds are removed
 * when the folder is first written by a node (a part pruned, its file gone).
 * A `--read-only` node writes none and keeps what it reads in memory only.
 *
 * @module
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../store/mod.ts";
import type { Column, FooterRow, FooterStore } from "./file_stats.ts";

/** Names how a file is made: a change here makes every kept file stale (read again from the part). */
const FORMAT = "svc-footers-1";
/** Files read or written at once. */
const AT_ONCE = 32;
/** Parts whose footers a node keeps in memory too, at most (the footer reader keeps their statistics). */
const KNOWN_MOST = 20_000;

/** What one part's file holds. */
interface KeptFooter {
  format: string;
  sha256: string;
  rows: FooterRow[];
  /** The part's columns, when they were read over parts that all had them. */
  columns: Column[] | null;
}

/** `<project>/footers/<sha256>.json` for the part at `path` (`<project>/parts/<sha256>.parquet`). */
function fileOf(path: string): string {
  return join(dirname(dirname(path)), "footers", `${basename(path, ".parquet")}.json`);
}

/** `items` mapped by `fn`, at most {@linkcode AT_ONCE} at once, in order. */
async function bounded<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  return out;
}

async function readKept(path: string): Promise<KeptFooter | null> {
  try {
    const kept = JSON.parse(await readFile(fileOf(path), "utf8")) as KeptFooter;
    return kept.format === FORMAT && kept.sha256 === basename(path, ".parquet") && Array.isArray(kept.rows)
      ? kept
      : null;
  } catch {
    return null; // none yet, or torn: read from the part
  }
}

/**
 * Writes the file of the part at `path`; the first write to a project's
 * footer folder this run makes it and first removes the files of parts the
 * project no longer holds, and every write to the folder waits for that
 * (`made`, by folder: a write that went ahead found no folder yet).
 */
async function writeKept(path: string, footer: KeptFooter, made: Map<string, Promise<void>>): Promise<void> {
  const folder = dirname(fileOf(path));
  let making = made.get(folder);
  if (!making) {
    making = makeFolder(folder);
    made.set(folder, making);
    making.catch(() => made.delete(folder));
  }
  await making;
  await writeFileAtomic(fileOf(path), JSON.stringify(footer) + "\n", "existing");
}

/** Makes a project's footer folder and removes from it the files of parts the project no longer holds. */
async function makeFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const parts = new Set(await readdir(join(dirname(folder), "parts")).catch(() => [] as string[]));
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (name.endsWith(".json") && !parts.has(name.replace(/\.json$/, ".parquet"))) {
      await rm(join(folder, name), { force: true });
    }
  }
}

/**
 * Footers kept beside the parts of the store (see the module's notes); with
 * `readOnly`, in memory only. `settle` waits for the files being written
 * (before the node lets go of its store).
 *
 * @example
 * ```ts ignore
 * import { footerReader, keptFooters } from "./mod.ts";
 * const footers = footerReader(engine, keptFooters({ readOnly: false, warn: console.warn }));
 * ```
 */
export function keptFooters(
  options: { readOnly: boolean; warn(message: string): void },
): FooterStore & { settle(): Promise<void> } {
  /** Footers read or kept this run, by part path (a bounded many): what a part's file is written from. */
  const known = new Map<string, KeptFooter>();
  /** Files being written, behind the answers that read their footers. */
  const writes = new Set<Promise<void>>();
  /** Columns learnt for parts whose rows are not known yet, by part path. */
  const columnsFirst = new Map<string, Column[]>();
  /** Projects' footer folders made (and swept of the files of parts gone) this run, or being made. */
  const made = new Map<string, Promise<void>>();
  const remember = (path: string, footer: KeptFooter) => {
    known.delete(path);
    known.set(path, footer);
    if (known.size > KNOWN_MOST) known.delete(known.keys().next().value!);
  };
  const keep = (entries: [string, KeptFooter][]) => {
    for (const [path, footer] of entries) remember(path, footer);
    if (options.readOnly || entries.length === 0) return;
    const writing = bounded(entries, ([path, footer]) => writeKept(path, footer, made)).then(
      () => {},
      (e) => options.warn(`could not keep parts' footers: ${(e as Error)?.message ?? e}`),
    );
    writes.add(writing);
    writing.finally(() => writes.delete(writing));
  };
  const footersOf = async (paths: readonly string[]) =>
    await bounded(paths, async (path) => {
      const footer = known.get(path) ?? await readKept(path);
      if (footer) remember(path, footer);
      return footer;
    });
  return {
    settle: async () => void await Promise.allSettled([...writes]),
    async rows(parts) {
      const footers = await footersOf(parts.map((p) => p.path));
      return new Map(parts.flatMap((p, i) => footers[i] ? [[p.path, footers[i]!.rows]] : []));
    },
    keepRows(parts, rows) {
      keep(parts.flatMap((p) => {
        const read = rows.get(p.path);
        if (!read) return [];
        const columns = known.get(p.path)?.columns ?? columnsFirst.get(p.path) ?? null;
        columnsFirst.delete(p.path);
        return [[p.path, { format: FORMAT, sha256: p.sha256, rows: read, columns }]];
      }));
    },
    async columns(paths) {
      const footers = await footersOf(paths);
      const first = JSON.stringify(footers[0]?.columns ?? null);
      return first !== "null" && footers.every((f) => JSON.stringify(f?.columns ?? null) === first)
        ? footers[0]!.columns
        : null;
    },
    keepColumns(paths, columns) {
      // A part's file holds its rows first: columns learnt before them wait for them (a table's metadata is read
      // before its files are listed).
      keep(paths.flatMap((path) => {
        const footer = known.get(path);
        if (!footer) {
          if (columnsFirst.size >= 100_000) columnsFirst.clear();
          columnsFirst.set(path, columns);
          return [];
        }
        return JSON.stringify(footer.columns) !== JSON.stringify(columns) ? [[path, { ...footer, columns }]] : [];
      }));
    },
  };
}
