/**
 * How a page reader reads the parts (see `pages.ts`): a page's rows straight
 * from a part, and blocks decoded into the page cache. Reading any rows of a
 * row group costs about reading the whole of it (the columns' pages are
 * decompressed and decoded around the rows asked for: 5-7 ms of CPU for 200
 * rows of a 122,880-row group here), so a block missed while a plain cache
 * has room is decoded with every other block of its row group the cache
 * lacks, in one query whose records DuckDB writes (see `_block_lines.ts`):
 * a block cost 24-32 ms of CPU one at a time, and a row group's dozen blocks
 * now cost about one.
 *
 * @module
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlString } from "./_duckdb.ts";
import { partLineSql, rowGroupOfLines } from "./_block_lines.ts";
import {
  ADMIT_AFTER,
  BLOCK_ROWS,
  lastAtOrBelow,
  MAX_TOUCHED,
  type PagePart,
  type ReaderState,
  reading,
} from "./_reader_state.ts";
import { type CachedGroup, cachedGroup } from "./cached_group.ts";
import { recordEncoder } from "./rows.ts";

/**
 * The query for rows `from` to `from + want` of one part, by row number, so
 * that DuckDB reads only the row groups that hold them.
 *
 * @example
 * ```ts
 * import { partSliceSql } from "./_block_decodes.ts";
 * partSliceSql("/store/cities/parts/ab.parquet", 400, 200);
 * ```
 */
export function partSliceSql(path: string, from: number, want: number): string {
  return `SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(path)}, file_row_number = true) ` +
    `WHERE file_row_number >= ${from} AND file_row_number < ${from + want} ORDER BY file_row_number`;
}

/** Rows `from` to `from + want` of `part`, each as its JSON text. */
export async function slice(
  state: ReaderState,
  part: PagePart,
  from: number,
  want: number,
  first = false,
): Promise<string[]> {
  const { path, sha256 } = part;
  const byRowNumber = partSliceSql(path, from, want);
  const byOffset = `SELECT * FROM read_parquet(${sqlString(path)}) LIMIT ${want} OFFSET ${from}`;
  return await reading(state, [part], () => sliceRows(state, sha256, byRowNumber, byOffset, first));
}

async function sliceRows(
  state: ReaderState,
  sha256: string,
  byRowNumber: string,
  byOffset: string,
  first: boolean,
): Promise<string[]> {
  return await state.engine.use(async (c) => {
    let result;
    if (state.ownRowNumber.has(sha256)) {
      result = await c.run(byOffset);
    } else {
      try {
        result = await c.run(byRowNumber);
      } catch (e) {
        if (!/file_row_number/i.test(String((e as Error)?.message))) throw e;
        state.ownRowNumber.add(sha256);
        result = await c.run(byOffset);
      }
    }
    const encode = recordEncoder(result);
    const texts: string[] = [];
    for (const chunk of await result.fetchAllChunks()) texts.push(...encode(chunk));
    return texts;
  }, { first });
}

/**
 * Whether the cache has room for the blocks being decoded and `more`, as
 * large as those it holds: while it does, a block goes in on its first miss,
 * since keeping it drops nothing.
 */
export function hasRoom(state: ReaderState, more = 1): boolean {
  const { bytes, groups, maxBytes } = state.cache!.stats();
  const block = groups === 0 ? 0 : bytes / groups;
  return bytes + (state.decoding.size + more) * block <= maxBytes;
}

/** Whether a missed block is to be decoded into the cache: it is being, or the cache has room, or it was missed before. */
export function admitted(state: ReaderState, key: string): boolean {
  if (state.decoding.has(key)) return true;
  if (state.oversized.has(key)) return false;
  const misses = (state.touched.get(key) ?? 0) + 1;
  if (misses >= ADMIT_AFTER || hasRoom(state)) {
    state.touched.delete(key);
    return true;
  }
  if (state.touched.size >= MAX_TOUCHED) state.touched.clear();
  state.touched.set(key, misses);
  return false;
}

/** The SQL of the part's records' JSON texts, learnt once per part; null when they are written in JavaScript. */
async function lineOf(state: ReaderState, c: DuckDBConnection, path: string, sha256: string) {
  if (state.ownRowNumber.has(sha256)) return null;
  if (!state.lines.has(sha256)) {
    const line = await partLineSql(c, path);
    if (state.lines.size >= MAX_TOUCHED) state.lines.clear();
    state.lines.set(sha256, line);
  }
  return state.lines.get(sha256) ?? null;
}

/**
 * The block starting at `start` and the others of its row group that the
 * cache lacks and nothing decodes, while the cache has room for them all;
 * else that block alone. A compressing cache (a small budget's) decodes one
 * block at a time: a row group's dozen blocks at once, held plain until
 * compressed, took a 512 MiB node's resident size from 330 to 470 MiB.
 */
function siblings(state: ReaderState, sha256: string, start: number): number[] {
  if (state.cache!.compressed) return [start];
  const groupStarts = state.groups.get(sha256) ?? [];
  const g = lastAtOrBelow(groupStarts, start);
  const [from, to] = [groupStarts[g] ?? start, groupStarts[g + 1] ?? start + 1];
  const blocks = (state.bounds.get(sha256) ?? []).slice(0, -1).filter((at) =>
    at >= from && at < to && (at === start || (!state.cache!.has(sha256, at) && !state.decoding.has(`${sha256}:${at}`)))
  );
  return blocks.length > 1 && hasRoom(state, blocks.length) ? blocks : [start];
}

/**
 * The blocks of part `sha256` starting at `starts` (of one row group, in
 * order), decoded whole, in one query where DuckDB writes the part's
 * records, else one at a time here.
 */
async function decodeBlocks(state: ReaderState, part: PagePart, starts: number[]) {
  const { path, sha256 } = part;
  const bounds = state.bounds.get(sha256)!;
  const end = (at: number) => bounds[bounds.indexOf(at) + 1];
  const first = starts[0];
  const rows = end(starts[starts.length - 1]) - first;
  const got = await reading(state, [part], () =>
    state.engine.use(async (c) => {
      const line = await lineOf(state, c, path, sha256);
      return line === null ? null : await rowGroupOfLines(c, path, line, first, rows, BLOCK_ROWS);
    }, { first: true }));
  const decoded = new Map<number, CachedGroup>();
  for (const at of starts) {
    decoded.set(
      at,
      got?.[(at - first) / BLOCK_ROWS] ?? cachedGroup(await slice(state, part, at, end(at) - at, true)),
    );
  }
  return decoded;
}

/**
 * The block of part `sha256` starting at row `start`, decoded whole and put
 * in the cache (with the others of its row group the cache lacks, while it
 * has room), once for every page asking meanwhile. The decode goes ahead of
 * the pages waiting for a connection: each page it serves later is one not
 * read from the parts.
 */
export function decoded(state: ReaderState, part: PagePart, start: number): Promise<CachedGroup> {
  const sha256 = part.sha256;
  const key = `${sha256}:${start}`;
  const under = state.decoding.get(key);
  if (under) return under;
  const starts = siblings(state, sha256, start);
  const work = (async () => {
    const done = await state.decodeTurns?.take();
    try {
      const groups = await decodeBlocks(state, part, starts);
      // Plain: a compressing cache compresses its least recently used blocks once it is full.
      for (const [at, group] of groups) {
        if (state.cache!.set(sha256, at, group)) continue;
        if (state.oversized.size >= MAX_TOUCHED) state.oversized.clear();
        state.oversized.add(`${sha256}:${at}`);
      }
      return groups;
    } finally {
      done?.();
    }
  })();
  for (const at of starts) {
    const one = work.then((groups) => groups.get(at)!);
    // Dropped however it ends, a turn refused included.
    one.catch(() => {}).finally(() => state.decoding.delete(`${sha256}:${at}`));
    state.decoding.set(`${sha256}:${at}`, one);
  }
  return state.decoding.get(key)!;
}
