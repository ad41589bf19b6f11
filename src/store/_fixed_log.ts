/**
 * An append-only file of fixed-width lines: each line is a JSON object padded
 * with spaces to the same width, so line `i` starts at byte `i * width` and is
 * read without reading what comes before it. A line is written once and never
 * changed; a crash can leave a torn last line, which readers ignore and the
 * next writer cuts off. Reads go through a small cache of blocks, keyed by
 * the file's inode so that a file replaced whole is read afresh.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { mkdir, open, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { fileStampOf } from "../runtime/mod.ts";

/** Lines read from disk at once. */
const BLOCK_LINES = 64;
/** Blocks kept per log. */
const BLOCKS_KEPT = 64;

/** One fixed-width log file. */
export interface FixedLog {
  /** Its path. */
  readonly path: string;
  /** Bytes per line, the newline included. */
  readonly width: number;
  /** Whole lines in the file now (a torn last line is not counted). */
  count(): number;
  /** Line `index` parsed, or null past the end. */
  read(index: number): Promise<Record<string, unknown> | null>;
  /** Lines `from` to `to - 1`, parsed (fewer when the file ends first). */
  readRange(from: number, to: number): Promise<Record<string, unknown>[]>;
  /** Appends `lines` after the whole lines, cutting a torn tail first; fsyncs when `sync`. Call under the project's lock. */
  append(lines: readonly Record<string, unknown>[], sync: boolean): Promise<void>;
  /** Cuts the log to its first `lines` lines (what a write that did not commit left). Call under the project's lock. */
  cut(lines: number): Promise<void>;
}

interface Block {
  /** Lines it held when read (the last block may grow later). */
  lines: Record<string, unknown>[];
}

/**
 * The text of one line: `value` as JSON padded to `width - 1` characters and
 * a newline. Throws when it does not fit.
 *
 * @example
 * ```ts
 * import { fixedLine } from "./_fixed_log.ts";
 * fixedLine({ n: 1 }, 16); // '{"n":1}        \n'
 * ```
 */
export function fixedLine(value: Record<string, unknown>, width: number): string {
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes > width - 1) throw new RangeError(`a log line of ${bytes} bytes does not fit in ${width - 1}`);
  return text + " ".repeat(width - 1 - bytes) + "\n";
}

function parseLine(text: string, path: string, index: number): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new Error(`${path}: line ${index + 1} is not a log line`);
}

/**
 * The log at `path` with lines of `width` bytes.
 *
 * @example
 * ```ts
 * import { fixedLog } from "./_fixed_log.ts";
 * const log = fixedLog(`${await Deno.makeTempDir()}/parts.log`, 64);
 * await log.append([{ n: 0 }], false);
 * console.log(log.count(), await log.read(0)); // 1 { n: 0 }
 * ```
 */
export function fixedLog(path: string, width: number): FixedLog {
  const blocks = new Map<number, Block>();
  let inode = "";

  function count(): number {
    const stamp = fileStampOf(path);
    const identity = stamp ? stamp.key.split(":")[0] : "";
    if (identity !== inode) {
      blocks.clear();
      inode = identity;
    }
    return stamp ? Math.floor(stamp.size / width) : 0;
  }

  async function block(b: number, whole: number): Promise<Block> {
    const hit = blocks.get(b);
    const wanted = Math.min(BLOCK_LINES, whole - b * BLOCK_LINES);
    if (hit && hit.lines.length >= wanted) {
      blocks.delete(b);
      blocks.set(b, hit);
      return hit;
    }
    const bytes = Buffer.alloc(wanted * width);
    const handle = await open(path, "r");
    try {
      await handle.read(bytes, 0, bytes.length, b * BLOCK_LINES * width);
    } finally {
      await handle.close();
    }
    const lines: Record<string, unknown>[] = [];
    for (let i = 0; i < wanted; i++) {
      lines.push(parseLine(bytes.toString("utf8", i * width, (i + 1) * width), path, b * BLOCK_LINES + i));
    }
    const made = { lines };
    blocks.set(b, made);
    if (blocks.size > BLOCKS_KEPT) blocks.delete(blocks.keys().next().value!);
    return made;
  }

  async function readRange(from: number, to: number): Promise<Record<string, unknown>[]> {
    const whole = count();
    const end = Math.min(to, whole);
    const out: Record<string, unknown>[] = [];
    for (let i = Math.max(0, from); i < end;) {
      const b = Math.floor(i / BLOCK_LINES);
      const got = await block(b, whole);
      const last = Math.min(end, b * BLOCK_LINES + got.lines.length);
      for (; i < last; i++) out.push(got.lines[i - b * BLOCK_LINES]);
    }
    return out;
  }

  return {
    path,
    width,
    count,
    readRange,
    async read(index) {
      if (!Number.isSafeInteger(index) || index < 0) return null;
      return (await readRange(index, index + 1))[0] ?? null;
    },
    async cut(lines) {
      if (count() > lines) await truncate(path, lines * width);
      blocks.clear();
    },
    async append(lines, sync) {
      const stamp = fileStampOf(path);
      const size = stamp?.size ?? 0;
      if (size % width !== 0) await truncate(path, size - (size % width));
      if (!stamp) await mkdir(dirname(path), { recursive: true });
      const handle = await open(path, "a");
      try {
        await handle.write(lines.map((line) => fixedLine(line, width)).join(""));
        if (sync) await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}

/**
 * The first index in `[0, n)` whose line `key` is at least `target`, or `n`,
 * where `key` does not decrease along the log (binary search over
 * {@linkcode FixedLog.read}).
 *
 * @example
 * ```ts
 * import { fixedLog, searchLog } from "./_fixed_log.ts";
 * const log = fixedLog(`${await Deno.makeTempDir()}/p.log`, 32);
 * await log.append([{ at: 0 }, { at: 5 }, { at: 9 }], false);
 * await searchLog(log, log.count(), (line) => line.at as number, 6); // 2
 * ```
 */
export async function searchLog(
  log: FixedLog,
  n: number,
  key: (line: Record<string, unknown>) => number,
  target: number,
): Promise<number> {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const line = await log.read(mid);
    if (line !== null && key(line) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
