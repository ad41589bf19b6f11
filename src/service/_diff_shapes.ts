/**
 * The shapes of a diff's answer, shared by the diff read from listed parts
 * (`diff.ts`) and the one read from the provenance log (`diff_log.ts`).
 *
 * @module
 */

/** One contribution a diff adds, as the origin lists it. */
export interface DiffFragment {
  /** The version it was merged in. */
  version: number;
  /** The contribution's id (null when the part did not say). */
  contributionId: string | null;
  /** Who sent it (the source's `agentId`), null when unknown. */
  agent: string | null;
  /** Its records in version `to`. */
  accepted: number;
  /** When it was merged, ISO 8601, null when the node cannot tell. */
  mergedAt: string | null;
}

/** What a range of versions added to a version, read from its parts' provenance. */
export interface AddedRecords {
  /** The contributions, ordered by version then id, with `mergedAt` when the provenance says it. */
  fragments: (Omit<DiffFragment, "mergedAt"> & { mergedAt?: string | null })[];
  /** Where their records are: offsets over the whole version (part after part) and lengths, in order, adjacent ones joined. */
  ranges: { offset: number; records: number }[];
}
