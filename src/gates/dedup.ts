/**
 * The duplicate gate (`dedup`): records already in the latest version, or
 * repeated within the batch, are dropped and counted; a batch with nothing
 * new left is rejected. The identities of a project's records are kept in
 * memory, built once from its parts and kept current with each merge, so the
 * gate costs in proportion to the batch, not to the project.
 *
 * @module
 */
import { parseExactJson } from "../wire/mod.ts";
import { recordIdentity, type StoredRecord } from "./identity.ts";

const BIG_DIGITS = /\d{16}/;

/** The identities of the records of a version. */
export interface KnownRecords {
  /** Record identities. */
  identities: Set<string>;
  /** The version whose records they are, every one of them (null: none yet, or not known). */
  version: number | null;
}

/**
 * An empty set of known records.
 *
 * @example
 * ```ts
 * import { knownRecords } from "./dedup.ts";
 * knownRecords().identities.size; // 0
 * ```
 */
export function knownRecords(): KnownRecords {
  return { identities: new Set(), version: null };
}

/**
 * Adds the records of one part, given as JSON lines (as exports and data
 * pages write them).
 */
export async function learnPart(known: KnownRecords, lines: AsyncIterable<string>): Promise<void> {
  for await (const line of lines) {
    if (line === "") continue;
    // JSON.parse is several times faster; only a long digit run can hold an integer it would round.
    const record = BIG_DIGITS.test(line) ? parseExactJson(line) : JSON.parse(line);
    known.identities.add(recordIdentity(record as StoredRecord));
  }
}

/** What the duplicate gate kept of a batch. */
export interface Deduplicated {
  /** The new records, in batch order. */
  fresh: StoredRecord[];
  /** Their identities. */
  identities: string[];
  /** How many were dropped. */
  dropped: number;
}

/**
 * Splits `records` (stored forms) into the new ones and the duplicates.
 *
 * @example
 * ```ts
 * import { deduplicate, knownRecords } from "./dedup.ts";
 * deduplicate(knownRecords(), [{ a: 1 }, { a: 1 }]).dropped; // 1
 * ```
 */
export function deduplicate(known: KnownRecords, records: StoredRecord[]): Deduplicated {
  const seen = new Set<string>();
  const fresh: StoredRecord[] = [];
  const identities: string[] = [];
  for (const record of records) {
    const id = recordIdentity(record);
    if (known.identities.has(id) || seen.has(id)) continue;
    seen.add(id);
    fresh.push(record);
    identities.push(id);
  }
  return { fresh, identities, dropped: records.length - fresh.length };
}
