/**
 * The contribution gates, in order per record: `schema`, `pii`, then the
 * duplicate gate (`dedup`) over record identities.
 *
 * @module
 */
export * from "./dedup.ts";
export * from "./identity.ts";
export * from "./pii.ts";
export * from "./schema.ts";
