/**
 * Provenance of a local project's parts, as the origin's are: each part lists
 * the contributions whose records it holds, in order, with where they start
 * in it. A part that folds earlier parts in carries their sources on, moved
 * along by the records before them.
 *
 * @module
 */

/** One contribution's records within a part. */
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

function isSource(value: unknown): value is PartSource {
  const s = value as PartSource;
  return s !== null && typeof s === "object" && Number.isSafeInteger(s.records) && Number.isSafeInteger(s.offset);
}

/**
 * The sources of a part written from the records of `folded` parts (each its
 * manifest entry and record count, in order) followed by a batch described
 * by `batch` (its offset is computed here).
 *
 * @example
 * ```ts
 * import { partSources } from "./provenance.ts";
 * const batch = { contributionId: "c2", agentId: "anonymous", mergedInVersion: 2, records: 5 };
 * partSources([{ entry: { sources: [{ contributionId: "c1", agentId: "anonymous", mergedInVersion: 1, records: 10, offset: 0 }] }, records: 10 }], batch);
 * // [{ contributionId: "c1", ..., offset: 0 }, { contributionId: "c2", ..., records: 5, offset: 10 }]
 * ```
 */
export function partSources(
  folded: readonly { entry: Record<string, unknown>; records: number | null }[],
  batch: Omit<PartSource, "offset">,
): PartSource[] {
  const sources: PartSource[] = [];
  let at = 0;
  for (const part of folded) {
    const listed = Array.isArray(part.entry.sources) && part.entry.sources.every(isSource)
      ? part.entry.sources as PartSource[]
      : null;
    const records = part.records ?? listed?.reduce((a, s) => a + s.records, 0) ?? 0;
    if (listed) {
      for (const s of listed) sources.push({ ...s, offset: at + s.offset });
    } else {
      sources.push({ contributionId: null, agentId: null, mergedInVersion: null, records, offset: at });
    }
    at += records;
  }
  sources.push({ ...batch, offset: at });
  return sources;
}
