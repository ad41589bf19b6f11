/**
 * Provenance of a local project's records, written once: one line per merged
 * contribution in `<slug>/index/provenance.log`, in the order its records sit
 * in every later version (merges append records, folds keep their order).
 * A part's `sources` and a diff's fragments are read from it by binary
 * search, so a version made after a hundred thousand
 * others writes one line, not the history of every part.
 *
 * @module
 */
import { join } from "node:path";
import { type FixedLog, fixedLog, searchLog } from "./_fixed_log.ts";
import { projectDir } from "./layout.ts";

/** Bytes per line of `provenance.log`. */
const WIDTH = 288;
/** Lines read at once when a run of them is wanted. */
const LINES_AT_ONCE = 2048;

/** One contribution's records within a part, as a published manifest lists them. */
export interface PartSource {
  /** The contribution's id (null when an older part did not say). */
  contributionId: string | null;
  /** Who sent it, as far as the node can tell (see docs/api.md); null when unknown. */
  agentId: string | null;
  /** The version the contribution was merged in. */
  mergedInVersion: number | null;
  /** How many of its records the part holds. */
  records: number;
  /** The part's row where they start. */
  offset: number;
}

/** One line of `provenance.log`: a run of records and what brought them. */
export interface ProvenanceEntry {
  /** Its line. */
  entry: number;
  /** The version it was merged in (null: not known, records from before provenance was kept). */
  version: number | null;
  /** The contribution's id, when known. */
  contributionId: string | null;
  /** Who sent it, when known. */
  agentId: string | null;
  /** Its records. */
  records: number;
  /** Where its first record sits, counted over every record of the project. */
  start: number;
  /** When it was merged (ISO 8601), when known. */
  at: string | null;
  /**
   * For a run whose version is not known (records from before provenance was
   * kept): the newest version known to come before it, 0 when none. It was
   * merged in that version or after, and no later than the next known one.
   */
  after?: number;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isText = (v: unknown): v is string | null => v === null || typeof v === "string";

/**
 * An entry read from a log line or a manifest, or null when it is not one.
 *
 * @example
 * ```ts
 * import { provenanceEntryOf } from "./provenance.ts";
 * provenanceEntryOf({ entry: 0, version: 1, contributionId: "c1", agentId: "anonymous", records: 3, start: 0, at: null });
 * ```
 */
export function provenanceEntryOf(value: unknown): ProvenanceEntry | null {
  const v = value as Record<string, unknown> | null;
  if (!v || typeof v !== "object") return null;
  const ok = isCount(v.entry) && (v.version === null || (isCount(v.version) && v.version >= 1)) &&
    isText(v.contributionId) && isText(v.agentId) && isCount(v.records) && isCount(v.start) && isText(v.at);
  if (!ok) return null;
  if (v.after !== undefined && !isCount(v.after)) return null;
  return {
    ...(v.after !== undefined ? { after: v.after as number } : {}),
    entry: v.entry as number,
    version: v.version as number | null,
    contributionId: v.contributionId as string | null,
    agentId: v.agentId as string | null,
    records: v.records as number,
    start: v.start as number,
    at: v.at as string | null,
  };
}

/** A project's `provenance.log`. */
export interface ProvenanceLog {
  /** Entries written. */
  count(): number;
  /**
   * The sources of the records `[start, start + records)`, offsets counted
   * from `start`, within the first `entries` lines: in order, a batch of at
   * most a few thousand at a time.
   */
  sources(start: number, records: number, entries: number): AsyncGenerator<PartSource[]>;
  /**
   * The entries merged in versions `from + 1` to `to`, in order, within the
   * first `entries` lines, with the runs of unknown version among them; and
   * the run just before them when its version is not known (then it may have
   * been merged after `from` too).
   */
  mergedBetween(
    from: number,
    to: number,
    entries: number,
  ): Promise<{ entries: ProvenanceEntry[]; unknownBefore: ProvenanceEntry | null }>;
  /** Appends `lines` (numbered from {@linkcode ProvenanceLog.count}); fsyncs when `sync`. Call under the project's lock. */
  append(lines: readonly ProvenanceEntry[], sync: boolean): Promise<void>;
  /** The log file. */
  readonly log: FixedLog;
}

function entryAt(line: Record<string, unknown> | null, path: string, n: number): ProvenanceEntry {
  const found = provenanceEntryOf(line);
  if (!found || found.entry !== n) throw new Error(`${path} holds no provenance entry ${n}: the store needs repair`);
  return found;
}

/**
 * The `provenance.log` of `slug` in the store at `root`.
 *
 * @example
 * ```ts
 * import { provenanceLog } from "./provenance.ts";
 * const log = provenanceLog(await Deno.makeTempDir(), "notes");
 * await log.append([{ entry: 0, version: 1, contributionId: "c1", agentId: "anonymous", records: 4, start: 0, at: null }], false);
 * for await (const batch of log.sources(2, 2, log.count())) console.log(batch);
 * // [{ contributionId: "c1", agentId: "anonymous", mergedInVersion: 1, records: 2, offset: 0 }]
 * ```
 */
export function provenanceLog(root: string, slug: string): ProvenanceLog {
  const log = fixedLog(join(projectDir(root, slug), "index", "provenance.log"), WIDTH);
  const end = (line: Record<string, unknown>) => (line.start as number) + (line.records as number);
  return {
    log,
    count: () => log.count(),
    async *sources(start, records, entries) {
      const n = Math.min(entries, log.count());
      const stop = start + records;
      for (let at = await searchLog(log, n, end, start + 1); at < n;) {
        const lines = await log.readRange(at, Math.min(n, at + LINES_AT_ONCE));
        if (lines.length === 0) return;
        const out: PartSource[] = [];
        for (const [i, line] of lines.entries()) {
          const e = entryAt(line, log.path, at + i);
          if (e.start >= stop) break;
          const from = Math.max(e.start, start);
          const to = Math.min(e.start + e.records, stop);
          if (to > from) {
            out.push({
              contributionId: e.contributionId,
              agentId: e.agentId,
              mergedInVersion: e.version,
              records: to - from,
              offset: from - start,
            });
          }
        }
        if (out.length > 0) yield out;
        if (out.length < lines.length) return;
        at += lines.length;
      }
    },
    async mergedBetween(from, to, entries) {
      const n = Math.min(entries, log.count());
      const key = (line: Record<string, unknown>) => (line.version as number | null) ?? (line.after as number) ?? 0;
      const first = await searchLog(log, n, key, from + 1);
      const previous = first > 0 ? entryAt(await log.read(first - 1), log.path, first - 1) : null;
      const unknownBefore = previous !== null && previous.version === null && previous.records > 0 ? previous : null;
      const out: ProvenanceEntry[] = [];
      for (let at = first; at < n;) {
        const lines = await log.readRange(at, Math.min(n, at + LINES_AT_ONCE));
        if (lines.length === 0) break;
        for (const [i, line] of lines.entries()) {
          const e = entryAt(line, log.path, at + i);
          if (key(line) > to) return { entries: out, unknownBefore };
          out.push(e);
        }
        at += lines.length;
      }
      return { entries: out, unknownBefore };
    },
    async append(lines, sync) {
      await log.append(lines.map((l) => ({ ...l })), sync);
    },
  };
}
