/**
 * The schema gate: every required field present with its type, unknown
 * fields only where the schema allows extras.
 *
 * @module
 */
import type { ExactJson } from "../wire/json_parse.ts";
import type { SchemaDef } from "../wire/types.ts";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Field types a schema may name. */
export const FIELD_TYPES: readonly string[] = ["string", "integer", "number", "boolean"];

function hasType(value: ExactJson, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return (typeof value === "number" && Number.isFinite(value)) || typeof value === "bigint";
    case "integer":
      if (typeof value === "bigint") return value >= INT64_MIN && value <= INT64_MAX;
      return typeof value === "number" && Number.isInteger(value);
  }
  return false;
}

/**
 * Why `record` (the batch's `line`, counted from 1) breaks `schema`, or null
 * when it conforms.
 *
 * @example
 * ```ts
 * import { schemaProblem } from "./schema.ts";
 * schemaProblem({ id: "x" }, 1, { fields: [{ name: "id", type: "integer" }], allowExtra: false });
 * // 'line 1: "id" must be integer'
 * ```
 */
export function schemaProblem(record: ExactJson, line: number, schema: SchemaDef): string | null {
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    return `line ${line}: a record must be a JSON object`;
  }
  const known = new Set<string>();
  for (const field of schema.fields) {
    known.add(field.name);
    const value = Object.hasOwn(record, field.name) ? record[field.name] : null;
    if (value === null) {
      if (field.required !== false) return `line ${line}: missing required field "${field.name}"`;
      continue;
    }
    if (!hasType(value, field.type)) return `line ${line}: "${field.name}" must be ${field.type}`;
  }
  if (!schema.allowExtra) {
    for (const key of Object.keys(record)) {
      if (!known.has(key)) return `line ${line}: unknown field "${key}"`;
    }
  }
  return null;
}
