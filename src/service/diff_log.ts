/**
 * What versions `(from, to]` of a local project added, read from its
 * provenance log: the entries merged in that range, found by binary search,
 * so a diff of the last hundred versions of a project of a hundred thousand
 * reads about a hundred lines. Runs of records whose version is not known
 * (kept by an older release, before provenance was) that may fall in the
 * range make the answer 409, as in `diff.ts`.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import { provenanceLog, type StoredVersion } from "../store/mod.ts";
import type { AddedRecords } from "./_diff_shapes.ts";

/**
 * What versions `from + 1` to `to` added to version `to` (a version on the
 * part stack), with each fragment's time of merging.
 *
 * @example
 * ```ts ignore
 * import { addedFromLog } from "./diff_log.ts";
 * declare const version: Parameters<typeof addedFromLog>[0];
 * (await addedFromLog(version, 1, 3)).fragments.length;
 * ```
 */
export async function addedFromLog(version: StoredVersion, from: number, to: number): Promise<AddedRecords> {
  const layout = version.manifest.layout;
  if (layout.kind !== "stack") throw new TypeError("a diff from the log needs a version on the part stack");
  const log = provenanceLog(version.root, version.slug);
  const { entries, unknownBefore } = await log.mergedBetween(from, to, layout.provenance.entry + 1);
  const unknown = entries.filter((e) => e.version === null).reduce((n, e) => n + e.records, 0) +
    (unknownBefore?.records ?? 0);
  if (unknown > 0) {
    const after = from === 0 ? "since nothing" : `after version ${from}`;
    throw new NodeError(
      "conflict",
      `version ${to}'s parts carry no provenance for ${unknown} of its records (kept by an older release), ` +
        `so this node cannot tell what was added ${after}: ask the origin`,
    );
  }
  const byKey = new Map<string, AddedRecords["fragments"][number]>();
  const ranges: AddedRecords["ranges"] = [];
  for (const e of entries) {
    if (e.version === null || e.records === 0) continue;
    const key = e.contributionId === null ? `#${e.entry}` : `${e.version}:${e.contributionId}`;
    const fragment = byKey.get(key);
    if (fragment) fragment.accepted += e.records;
    else {
      byKey.set(key, {
        version: e.version,
        contributionId: e.contributionId,
        agent: e.agentId,
        accepted: e.records,
        mergedAt: e.at,
      });
    }
    const last = ranges[ranges.length - 1];
    if (last && last.offset + last.records === e.start) last.records += e.records;
    else ranges.push({ offset: e.start, records: e.records });
  }
  const fragments = [...byKey.values()].sort((a, b) =>
    a.version - b.version || (a.contributionId ?? "").localeCompare(b.contributionId ?? "")
  );
  return { fragments, ranges };
}
