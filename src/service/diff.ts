/**
 * What versions `(from, to]` of a project added, as the origin answers
 * `GET /projects/{slug}/diff`: `{project, from, to, addedContributions,
 * addedRecords, fragments, records}`, read from the provenance of version
 * `to`'s parts. Versions are append-only merges: every part lists the
 * contributions whose records it holds (`sources`, see
 * `src/store/provenance.ts`), each with the version it was merged in and the
 * rows it takes, and parts that fold earlier parts carry their sources on.
 * The records a range of versions added are the rows of the sources merged
 * in it, in the version's order.
 *
 * Where that provenance is missing (a part without `sources`, rows no
 * source covers, a source without its version) and the records might fall
 * in the range, the answer is 409 saying so, never a guess. Records in
 * a version keep the order they were merged in, so records without
 * provenance that come before a source merged at or before `from` are
 * known to be older than the range, and do not stop the answer.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import { WIRE_LIMITS } from "../wire/mod.ts";
import { type PartSource, readContribution, type StoredVersion } from "../store/mod.ts";
import type { NodeState } from "./state.ts";
import { withVersion } from "./versions.ts";
import { addedFromLog } from "./diff_log.ts";
import type { AddedRecords, DiffFragment } from "./_diff_shapes.ts";

/** Records in a diff when `limit` is absent. */
export const DEFAULT_DIFF: number = WIRE_LIMITS.diff.default;
/** Most records a diff gives. */
export const MAX_DIFF: number = WIRE_LIMITS.diff.max;

/** Which versions to compare, and how many records to give. */
export interface DiffRequest {
  /** The version compared from (0: since nothing); need not be held. */
  from: number;
  /** The version compared to, held whole by the node; greater than `from`. */
  to: number;
  /** Records to give, 0 to {@linkcode MAX_DIFF} (0: counts only). */
  limit: number;
}

export type { AddedRecords, DiffFragment } from "./_diff_shapes.ts";

/** A run of a version's rows and what made them (null: unknown). */
interface Span {
  /** Index of the part. */
  part: number;
  /** Row over the whole version where the run starts. */
  offset: number;
  /** Rows in the run. */
  records: number;
  /** The source, or null where no valid source covers the rows. */
  source: PartSource | null;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown) => v === undefined || v === null || typeof v === "string";

/** The sources of a part of `rows` rows, sorted by offset, or null when they are absent or do not fit the part. */
function sourcesOf(listed: unknown, rows: number): PartSource[] | null {
  if (!Array.isArray(listed)) return null;
  const sources: PartSource[] = [];
  for (const s of listed) {
    if (!s || typeof s !== "object" || !isCount(s.records) || !isCount(s.offset)) return null;
    const version = s.mergedInVersion ?? null;
    if (version !== null && !(isCount(version) && version >= 1)) return null;
    if (!isName(s.contributionId) || !isName(s.agentId)) return null;
    sources.push({
      contributionId: s.contributionId ?? null,
      agentId: s.agentId ?? null,
      mergedInVersion: version,
      records: s.records,
      offset: s.offset,
    });
  }
  sources.sort((a, b) => a.offset - b.offset);
  let at = 0;
  for (const s of sources) {
    if (s.offset < at) return null;
    at = s.offset + s.records;
  }
  return at <= rows ? sources : null;
}

/** The version's rows as spans of known and unknown provenance, in order. */
function spansOf(parts: readonly { entry: Record<string, unknown>; rows: number }[]): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const [part, { entry, rows }] of parts.entries()) {
    const sources = sourcesOf(entry.sources, rows);
    let at = 0;
    for (const source of sources ?? []) {
      if (source.offset > at) spans.push({ part, offset: start + at, records: source.offset - at, source: null });
      spans.push({ part, offset: start + source.offset, records: source.records, source });
      at = source.offset + source.records;
    }
    if (at < rows) spans.push({ part, offset: start + at, records: rows - at, source: null });
    start += rows;
  }
  return spans;
}

function noProvenance(to: number, from: number, span: Span): NodeError {
  const after = from === 0 ? "since nothing" : `after version ${from}`;
  return new NodeError(
    "conflict",
    `version ${to}'s parts carry no provenance for ${span.records} of its records (part ${span.part + 1}), ` +
      `so this node cannot tell what was added ${after}: ask the origin`,
  );
}

/**
 * What versions `from + 1` to `to` added to version `to`, whose parts (in
 * order) are given with their manifest entries and real row counts. Throws
 * a `conflict` {@linkcode NodeError} where provenance is missing for records
 * that may have been added in the range, or names a version after `to`.
 *
 * @example
 * ```ts
 * import { addedRecords } from "./diff.ts";
 * const c = (id: string, v: number, records: number, offset: number) =>
 *   ({ contributionId: id, agentId: "anonymous", mergedInVersion: v, records, offset });
 * const parts = [
 *   { entry: { sources: [c("a", 1, 10, 0)] }, rows: 10 },
 *   { entry: { sources: [c("b", 2, 5, 0), c("c", 3, 5, 5)] }, rows: 10 },
 * ];
 * addedRecords(parts, 1, 3).ranges; // [{ offset: 10, records: 10 }]
 * addedRecords(parts, 2, 3).fragments.map((f) => f.contributionId); // ["c"]
 * ```
 */
export function addedRecords(
  parts: readonly { entry: Record<string, unknown>; rows: number }[],
  from: number,
  to: number,
): AddedRecords {
  const spans = spansOf(parts);
  // Records keep their merge order: whatever comes before a record merged in version v was merged by v.
  let later = to;
  for (let k = spans.length - 1; k >= 0; k--) {
    const span = spans[k];
    const version = span.source?.mergedInVersion ?? null;
    if (version === null) {
      if (span.records > 0 && later > from) throw noProvenance(to, from, span);
      continue;
    }
    if (version > to) {
      throw new NodeError(
        "conflict",
        `version ${to}'s part ${span.part + 1} says it holds records merged in version ${version}, ` +
          "so this node cannot tell what changed: ask the origin",
      );
    }
    later = Math.min(later, version);
  }
  const byKey = new Map<string, Omit<DiffFragment, "mergedAt">>();
  const ranges: AddedRecords["ranges"] = [];
  for (const [k, span] of spans.entries()) {
    const source = span.source;
    const version = source?.mergedInVersion ?? null;
    if (source === null || version === null || version <= from) continue;
    const key = source.contributionId === null ? `#${k}` : `${version}:${source.contributionId}`;
    const fragment = byKey.get(key);
    if (fragment) fragment.accepted += span.records;
    else {
      byKey.set(key, {
        version,
        contributionId: source.contributionId,
        agent: source.agentId,
        accepted: span.records,
      });
    }
    const last = ranges[ranges.length - 1];
    if (last && last.offset + last.records === span.offset) last.records += span.records;
    else if (span.records > 0) ranges.push({ offset: span.offset, records: span.records });
  }
  const fragments = [...byKey.values()].sort((a, b) =>
    a.version - b.version || (a.contributionId ?? "").localeCompare(b.contributionId ?? "")
  );
  return { fragments, ranges };
}

/** A manifest's time of making, if it says one. */
function manifestTime(version: StoredVersion | null): string | null {
  return version?.manifest.createdAt ?? null;
}

/**
 * When a fragment was merged: the kept answer of its contribution (a node
 * merges inside the request, so its `createdAt` is the merge's time), else
 * the manifest of the version it was merged in, when the node holds it.
 */
async function mergedAt(
  state: Pick<NodeState, "store">,
  version: StoredVersion,
  fragment: AddedRecords["fragments"][number],
): Promise<string | null> {
  if (fragment.mergedAt !== undefined && fragment.mergedAt !== null) return fragment.mergedAt;
  if (fragment.contributionId !== null) {
    const view = await readContribution(state.store.root, version.slug, fragment.contributionId).catch(() => null);
    if (view?.status === "merged" && view.mergedVersion === fragment.version) return view.createdAt;
  }
  if (fragment.version === version.version) return manifestTime(version);
  return manifestTime(await state.store.version(version.slug, fragment.version).catch(() => null));
}

/** Fragment times read at once, at most. */
const TIMES_AT_ONCE = 16;

async function withTimes(
  state: Pick<NodeState, "store">,
  version: StoredVersion,
  fragments: AddedRecords["fragments"],
): Promise<DiffFragment[]> {
  const out: DiffFragment[] = [];
  for (let i = 0; i < fragments.length; i += TIMES_AT_ONCE) {
    const batch = fragments.slice(i, i + TIMES_AT_ONCE);
    const times = await Promise.all(batch.map((f) => mergedAt(state, version, f)));
    batch.forEach((f, j) => out.push({ ...f, mergedAt: times[j] }));
  }
  return out;
}

/** The first `limit` records of `ranges` of `version`, each as JSON text, read as data pages read them. */
async function rangeRecords(
  state: Pick<NodeState, "pages">,
  version: StoredVersion,
  ranges: AddedRecords["ranges"],
  limit: number,
): Promise<string[]> {
  const records: string[] = [];
  for (const range of ranges) {
    if (records.length >= limit) break;
    records.push(...await state.pages.page(version, range.offset, Math.min(range.records, limit - records.length)));
  }
  return records;
}

/**
 * The diff of `slug` from version `request.from` to `request.to`, as the
 * JSON text of the answer. 404 when the node does not hold version `to`
 * whole; 400 for a range that is not `0 <= from < to` or a limit out of
 * bounds; 409 where provenance is missing (see the module's notes).
 *
 * @example
 * ```ts ignore
 * import { versionDiff } from "./diff.ts";
 * declare const state: Parameters<typeof versionDiff>[0];
 * JSON.parse(await versionDiff(state, "notes", { from: 1, to: 3, limit: 0 })).addedRecords;
 * ```
 */
export async function versionDiff(
  state: Pick<NodeState, "store" | "pages">,
  slug: string,
  request: DiffRequest,
): Promise<string> {
  const { from, to, limit } = request;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from >= to) {
    throw new NodeError("bad-request", `a diff needs 0 <= from < to (from ${from}, to ${to})`);
  }
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_DIFF) {
    throw new NodeError("bad-request", `a diff's limit must be >= 0 and <= ${MAX_DIFF}`);
  }
  return await withVersion(state, slug, to, async (version) => {
    const layout = version.manifest.layout;
    let added: AddedRecords;
    if (layout.kind === "stack") added = await addedFromLog(version, from, to);
    else {
      const rows = await state.pages.partRecords(version);
      added = addedRecords(layout.parts.map((p, i) => ({ entry: p.entry, rows: rows[i] })), from, to);
    }
    const [fragments, records] = await Promise.all([
      withTimes(state, version, added.fragments),
      rangeRecords(state, version, added.ranges, limit),
    ]);
    const addedCount = added.fragments.reduce((n, f) => n + f.accepted, 0);
    return `{"project":${JSON.stringify(slug)},"from":${from},"to":${to},` +
      `"addedContributions":${fragments.length},"addedRecords":${addedCount},` +
      `"fragments":${JSON.stringify(fragments)},"records":[${records.join(",")}]}`;
  });
}
