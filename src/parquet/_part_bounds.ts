/**
 * What a page reader learns of a part from its Parquet footer, once, kept by
 * digest (parts are immutable): where its row groups and blocks start, and
 * so its records.
 *
 * @module
 */
import type { StoredVersion } from "../store/mod.ts";
import { sqlString } from "./_duckdb.ts";
import { BLOCK_ROWS, type PagePart, type ReaderState, reading } from "./_reader_state.ts";

/** Reads the row-group bounds (and so the row counts) of `parts` from their footers, all in one query. */
async function learnBounds(state: ReaderState, parts: readonly PagePart[]): Promise<void> {
  const list = parts.map((p) => sqlString(p.path)).join(", ");
  const rows = await reading(state, parts, () =>
    state.engine.use(async (c) =>
      (await c.runAndReadAll(
        `SELECT DISTINCT file_name, row_group_id, row_group_num_rows FROM parquet_metadata([${list}]) ` +
          "ORDER BY file_name, row_group_id",
      )).getRows()
    ));
  const byPath = new Map<string, { blocks: number[]; groups: number[] }>();
  for (const [file, , n] of rows) {
    const known = byPath.get(String(file)) ?? { blocks: [0], groups: [0] };
    const starts = known.blocks;
    const from = starts[starts.length - 1];
    const end = from + Number(n);
    // Large row groups are decoded (and kept) in blocks: one decode's transient memory stays small.
    for (let at = from + BLOCK_ROWS; at < end; at += BLOCK_ROWS) starts.push(at);
    if (end > from) {
      starts.push(end);
      known.groups.push(end);
    }
    byPath.set(String(file), known);
  }
  for (const p of parts) {
    const { blocks, groups } = byPath.get(p.path) ?? { blocks: [0], groups: [0] };
    state.bounds.set(p.sha256, blocks);
    state.groups.set(p.sha256, groups);
    state.counts.set(p.sha256, blocks[blocks.length - 1]);
  }
}

/** Records in each part of `version`, from the parts' footers (read once a part) or, over a bucket, its manifest. */
export async function partRecords(state: ReaderState, version: StoredVersion): Promise<number[]> {
  const missing = version.parts.filter((p) => !state.counts.has(p.sha256));
  // Fetched parts are not fetched only to be counted: the manifest's counts stand until a part is read.
  if (state.remote && missing.every((p) => p.records !== null)) {
    return version.parts.map((p) => state.counts.get(p.sha256) ?? p.records!);
  }
  if (missing.length > 0) await learnBounds(state, missing);
  return version.parts.map((p) => state.counts.get(p.sha256) ?? 0);
}

/** Where each block of a part starts, and the part's rows last. */
export async function groupStarts(state: ReaderState, part: PagePart): Promise<number[]> {
  if (!state.bounds.has(part.sha256)) await learnBounds(state, [part]);
  return state.bounds.get(part.sha256)!;
}
