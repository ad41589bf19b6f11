/**
 * Records of a version by their places (a sorted or filtered page's records
 * lie all over it): cut from the page cache, the blocks it lacks decoded
 * into it, or read from the parts without one.
 *
 * @module
 */
import type { StoredVersion } from "../store/mod.ts";
import { sqlString } from "./_duckdb.ts";
import { admitted, decoded } from "./_block_decodes.ts";
import { groupStarts, partRecords } from "./_part_bounds.ts";
import { lastAtOrBelow, type PagePart, type ReaderState, reading } from "./_reader_state.ts";
import type { CachedGroup } from "./cached_group.ts";
import { recordEncoder } from "./rows.ts";

/** A record asked for: its place in the answer, and its row in its part. */
interface Wanted {
  at: number;
  row: number;
}

/** The records at `positions` of `version` by part (its index), each with its place in the answer. */
async function byPart(
  state: ReaderState,
  version: StoredVersion,
  positions: ArrayLike<number>,
): Promise<Map<number, Wanted[]>> {
  const sizes = await partRecords(state, version);
  const partStarts = [0];
  for (const n of sizes) partStarts.push(partStarts[partStarts.length - 1] + n);
  const parts = new Map<number, Wanted[]>();
  for (let at = 0; at < positions.length; at++) {
    const i = lastAtOrBelow(partStarts, positions[at]);
    if (i < 0 || i >= sizes.length) throw new RangeError(`no record at ${positions[at]}`);
    const wanted = { at, row: positions[at] - partStarts[i] };
    parts.get(i)?.push(wanted) ?? parts.set(i, [wanted]);
  }
  return parts;
}

/** `wanted` rows of a part whose blocks start at `starts`, by the first row of the block holding them. */
function byBlock(starts: readonly number[], wanted: readonly Wanted[]): Map<number, Wanted[]> {
  const blocks = new Map<number, Wanted[]>();
  for (const w of wanted) {
    const start = starts[lastAtOrBelow(starts, w.row)];
    blocks.get(start)?.push(w) ?? blocks.set(start, [w]);
  }
  return blocks;
}

/** Puts the records `ws` of the block `group` (its first row `start`) in their places of `out`. */
function cut(group: CachedGroup, start: number, ws: readonly Wanted[], out: string[]): void {
  // Many records of one compressed block: its runs decompressed once, not once a record.
  if (group.compressed && ws.length > 8) group = group.decompress();
  for (const w of ws) out[w.at] = group.records(w.row - start, w.row - start + 1)[0];
}

/** The records at `positions` of `version`, in the order given (see `PageReader.recordsAt` in `pages.ts`). */
export async function recordsAt(
  state: ReaderState,
  version: StoredVersion,
  positions: ArrayLike<number>,
): Promise<string[]> {
  const out = new Array<string>(positions.length);
  let cached = true;
  await Promise.all([...await byPart(state, version, positions)].map(async ([i, wanted]) => {
    const part = version.parts[i];
    if (!state.cache) {
      const rows = await rowsOf(state, part, wanted.map((w) => w.row));
      for (const w of wanted) out[w.at] = rows.get(w.row)!;
      return;
    }
    const blocks = byBlock(await groupStarts(state, part), wanted);
    await Promise.all([...blocks].map(async ([start, ws]) => {
      let group = state.cache!.get(part.sha256, start);
      if (!group) {
        cached = false;
        group = await decoded(state, part, start);
      }
      cut(group, start, ws, out);
    }));
  }));
  state.cache?.count(cached);
  return out;
}

/**
 * Most blocks a view's page may lack for them to be decoded into the cache
 * behind it: a page of records all over the version reads them where they
 * lie, and starts no decode of every row group.
 */
export const VIEW_PAGE_DECODES = 4;

/**
 * The records at `positions` of `version` when the cache holds them all,
 * else null (see `PageReader.cachedRecordsAt`); the blocks missed, when
 * few, are decoded into the cache meanwhile as a page's are (once admitted:
 * the cache has room, or they were missed before), so that a view asked
 * again finds them.
 */
export async function cachedRecordsAt(
  state: ReaderState,
  version: StoredVersion,
  positions: ArrayLike<number>,
): Promise<string[] | null> {
  const cache = state.cache;
  if (!cache) return null;
  const out = new Array<string>(positions.length);
  const found: [PagePart, number, Wanted[]][] = [];
  const missing: [PagePart, number][] = [];
  for (const [i, wanted] of await byPart(state, version, positions)) {
    const part = version.parts[i];
    for (const [start, ws] of byBlock(await groupStarts(state, part), wanted)) {
      if (cache.has(part.sha256, start)) found.push([part, start, ws]);
      else missing.push([part, start]);
    }
  }
  if (missing.length > 0) {
    if (missing.length <= VIEW_PAGE_DECODES) {
      for (const [part, start] of missing) {
        if (admitted(state, `${part.sha256}:${start}`)) decoded(state, part, start).catch(() => {});
      }
    }
    return null;
  }
  // Only now used: a page that misses neither reorders the cache nor makes its compressed blocks plain. A block let go
  // while the part bounds were read is a miss too.
  const groups = found.map(([part, start]) => cache.get(part.sha256, start));
  if (groups.some((g) => g === undefined)) return null;
  found.forEach(([, start, ws], k) => cut(groups[k]!, start, ws, out));
  cache.count(true);
  return out;
}

/** The records at `rows` of `part`, read from it, by row. */
async function rowsOf(state: ReaderState, part: PagePart, rows: number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(rows)].sort((a, b) => a - b);
  const path = part.path;
  const texts = await reading(state, [part], () =>
    state.engine.use(async (c) => {
      const result = await c.run(
        `SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(path)}, file_row_number = true) ` +
          `WHERE file_row_number IN (${wanted.join(", ")}) ORDER BY file_row_number`,
      );
      const encode = recordEncoder(result);
      return (await result.fetchAllChunks()).flatMap((chunk) => encode(chunk));
    }));
  return new Map(wanted.map((row, i) => [row, texts[i]]));
}
