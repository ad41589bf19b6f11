/**
 * A table's changes between two versions, for Delta Sharing's change data
 * feed and for `query` with `startingVersion`: each version's change file
 * (the records it added, written when it merged) as an `add` action, so
 * replaying every version's changes from the first gives the newest
 * version's records, none twice and none lost. A version that came without
 * a change file (pulled) has one only when it kept every part of the
 * version before and added whole parts; otherwise its change is unknown and
 * that is said, not guessed.
 *
 * @module
 */
import type { FileLine } from "./lines.ts";
import type { ProjectState, Store, StoredVersion } from "../store/mod.ts";
import { promiseParts, readChange } from "../store/mod.ts";
import { SharingError } from "./errors.ts";
import { fileLine, fileUrl, type ResponseFormat, type TableMetadata, type TableReadContext } from "./query.ts";
import { firstHeldWhere, parseTimestamp } from "./tables.ts";

/** One file of one version's change. */
export interface ChangeFile {
  /** The version it belongs to. */
  version: StoredVersion;
  /** The part's digest, size and path. */
  part: { sha256: string; bytes: number; path: string };
}

function bad(message: string): SharingError {
  return new SharingError(400, "INVALID_PARAMETER_VALUE", message);
}

/** The versions a change range asks for, from query parameters or a query body. */
export interface ChangeRange {
  /** First version, inclusive (or null with a starting timestamp). */
  startingVersion: number | null;
  /** Its time instead. */
  startingTimestamp: string | null;
  /** Last version, inclusive (the newest when both are null). */
  endingVersion: number | null;
  /** Its time instead. */
  endingTimestamp: string | null;
}

/**
 * The held versions from the range's start to its end, oldest first: 400
 * when the start is missing, past the end or the newest, or older than the
 * oldest version held (pruned).
 */
export async function versionsInRange(
  store: Store,
  project: ProjectState,
  range: ChangeRange,
): Promise<StoredVersion[]> {
  const held = project.versions;
  const newest = held.newest ?? 0;
  let from: number;
  if (range.startingVersion !== null) from = range.startingVersion;
  else if (range.startingTimestamp !== null) {
    const ms = parseTimestamp(range.startingTimestamp, "startingTimestamp");
    const first = (await firstHeldWhere(store, project, (t) => t >= ms)).version;
    if (!first) throw bad(`no version was made at or after ${range.startingTimestamp}`);
    from = first.version;
  } else throw bad("give startingVersion or startingTimestamp");
  let to = newest;
  if (range.endingVersion !== null) to = Math.min(range.endingVersion, newest);
  else if (range.endingTimestamp !== null) {
    const ms = parseTimestamp(range.endingTimestamp, "endingTimestamp");
    const { index } = await firstHeldWhere(store, project, (t) => t > ms);
    if (index === 0) throw bad(`no version was made at or before ${range.endingTimestamp}`);
    to = held.at(index - 1)!;
  }
  if (from > newest) throw bad(`startingVersion ${from} is past the table's newest, ${newest}`);
  if (from > to) throw bad(`the range starts at version ${from}, after its end, ${to}`);
  if (from < 1) {
    throw bad(`version ${from} does not exist: a table's versions start at 1 (held: ${held.oldest} to ${newest})`);
  }
  if (from < (held.oldest ?? 0)) {
    throw bad(`version ${from} is no longer held (pruned): the oldest version held is ${held.oldest}`);
  }
  const versions: StoredVersion[] = [];
  for (let n = from; n <= to; n++) {
    const version = await store.version(project.slug, n);
    if (!version) throw bad(`version ${n} is not held, so the changes after it cannot be told`);
    versions.push(version);
  }
  return versions;
}

/** The files of `version`'s change; `previous` is the version before it when held. */
export async function changeFiles(
  store: Store,
  version: StoredVersion,
  previous: StoredVersion | null,
): Promise<ChangeFile[]> {
  const change = version.manifest.change ?? await readChange(store.root, version.slug, version.version);
  if (change) {
    return [{ version, part: { ...change, path: store.partPath(version.slug, change.sha256) } }];
  }
  const parent = version.manifest.parent;
  if (version.version === 1 || parent === null) return version.parts.map((part) => ({ version, part }));
  if (previous) {
    const mine = new Set(version.parts.map((p) => p.sha256));
    if (previous.parts.every((p) => mine.has(p.sha256))) {
      const before = new Set(previous.parts.map((p) => p.sha256));
      return version.parts.filter((p) => !before.has(p.sha256)).map((part) => ({ version, part }));
    }
  }
  throw bad(
    `the change of version ${version.version} is not known on this node: it came without one and rewrote ` +
      `earlier parts; read the version itself with query`,
  );
}

/**
 * The change lines of `versions` (oldest first, contiguous), with URLs
 * signed and their parts kept until they expire.
 */
export async function changeLines(
  ctx: TableReadContext & { store: Store },
  meta: TableMetadata,
  versions: StoredVersion[],
  format: ResponseFormat,
): Promise<FileLine[]> {
  const held = new Map<number, StoredVersion>();
  for (const v of versions) held.set(v.version, v);
  const lines: FileLine[] = [];
  const given: string[] = [];
  let expires = 0;
  const files: ChangeFile[] = [];
  for (const version of versions) {
    const previous = held.get(version.version - 1) ?? await ctx.store.version(version.slug, version.version - 1);
    files.push(...await changeFiles(ctx.store, version, previous));
  }
  const stats = ctx.footers.statsOf(files.map((f) => f.part), meta.columns);
  for (const [i, file] of files.entries()) {
    const link = fileUrl(ctx, file.version.slug, file.part.sha256);
    lines.push(fileLine({ format, wrapper: "add", withVersion: true }, file.part, link, await stats[i], file.version));
    given.push(file.part.path);
    expires = Math.max(expires, link.expires);
  }
  if (given.length > 0) promiseParts(given, expires);
  return lines;
}
