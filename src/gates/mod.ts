/**
 * The contribution gates, in order per record: `schema`, `pii`, then the
 * duplicate gate (`dedup`) over record identities.
 *
 * @module
 */
export { deduplicate, type KnownRecords, knownRecords, learnPart } from "./dedup.ts";
export { storedForm, type StoredRecord } from "./identity.ts";
export { piiProblem } from "./pii.ts";
export { schemaErrors } from "./schema.ts";
