/**
 * A record's identity for the duplicate gate: SHA-256 of its stored form in
 * stable JSON. The stored form leaves out null fields (a null column reads
 * back as absent) and stores `number` fields as doubles.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { type ExactJson, type SchemaDef, stableStringify } from "../wire/mod.ts";

/** A record as a merge stores it. */
export type StoredRecord = Record<string, ExactJson>;

/**
 * The stored form of a record that passed the schema gate.
 *
 * @example
 * ```ts
 * import { storedForm } from "./identity.ts";
 * storedForm({ a: 1, b: null }, { fields: [{ name: "a", type: "number" }], allowExtra: true }); // { a: 1 }
 * ```
 */
export function storedForm(record: StoredRecord, schema: SchemaDef): StoredRecord {
  const numbers = new Set(schema.fields.filter((f) => f.type === "number").map((f) => f.name));
  const out: StoredRecord = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null) continue;
    out[key] = numbers.has(key) && typeof value === "bigint" ? Number(value) : value;
  }
  return out;
}

/**
 * The identity of a stored record: the first 16 bytes of the SHA-256 of its
 * stable JSON, base64 (compact enough to keep a million in memory).
 *
 * @example
 * ```ts
 * import { recordIdentity } from "./identity.ts";
 * recordIdentity({ b: 1, a: 2 }) === recordIdentity({ a: 2, b: 1 }); // true
 * ```
 */
export function recordIdentity(stored: StoredRecord): string {
  return createHash("sha256").update(stableStringify(stored)).digest().subarray(0, 16).toString("base64");
}
