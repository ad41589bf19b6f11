/**
 * A value held to a field of the catalog's schema, the issue said as data
 * so that each face words it its own way (the node: `body/limit must be
 * integer`; Delta Sharing: `limitHint must be a whole number from 0 to
 * 2147483647`).
 *
 * @module
 */
import { type Field, type Fields, mayLeaveOut, type ParsedFields } from "./schema.ts";

/** What is wrong with a value. */
export type Problem =
  /** It is required and was left out. */
  | "missing"
  /** It is not of the field's type (an item of a list, for a list). */
  | "type"
  /** A number out of the field's bounds. */
  | "range"
  /** A string or list too short or too long. */
  | "length"
  /** A string that is none of the field's values. */
  | "enum";

/** The first thing wrong with an input: the field's name, the field, and what. */
export interface Issue {
  /** The field's name. */
  name: string;
  /** The field. */
  field: Field;
  /** What is wrong. */
  problem: Problem;
}

function typed(field: Field, value: unknown): boolean {
  switch (field.type) {
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "scalar":
      return ["string", "number", "boolean"].includes(typeof value);
    case "record":
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "array":
      return Array.isArray(value) && value.every((item) => typed(field.items, item));
  }
}

/**
 * What is wrong with `value` as field `field`, or null (nested objects are
 * held to their type only).
 *
 * @example
 * ```ts
 * import { problemOf } from "./check.ts";
 * problemOf({ type: "integer", min: 0, max: 9, about: "" }, 12); // "range"
 * problemOf({ type: "string", about: "" }, "ok"); // null
 * ```
 */
export function problemOf(field: Field, value: unknown): Problem | null {
  if (value === undefined || value === null) return mayLeaveOut(field) ? null : "missing";
  if (!typed(field, value)) return "type";
  if (field.type === "integer") {
    const n = value as number;
    return n < field.min || (field.max !== undefined && n > field.max) ? "range" : null;
  }
  if (field.type === "string") {
    const length = [...(value as string)].length;
    if ((field.minLength !== undefined && length < field.minLength) || length > (field.maxLength ?? Infinity)) {
      return "length";
    }
    return field.enum && !field.enum.includes(value as string) ? "enum" : null;
  }
  if (field.type === "array") {
    const length = (value as unknown[]).length;
    return length < (field.minItems ?? 0) || length > (field.maxItems ?? Infinity) ? "length" : null;
  }
  return null;
}

/**
 * The fields of `fields` read from the object `body` (others ignored),
 * defaults applied and a field left out null; or the first issue.
 *
 * @example
 * ```ts
 * import { checkFields } from "./check.ts";
 * const fields = { limit: { type: "integer", min: 1, max: 10, default: 5, about: "" } } as const;
 * checkFields(fields, {}); // { input: { limit: 5 } }
 * checkFields(fields, { limit: 0 }); // { issue: { name: "limit", field: fields.limit, problem: "range" } }
 * ```
 */
export function checkFields<F extends Fields>(
  fields: F,
  body: Readonly<Record<string, unknown>>,
): { input: ParsedFields<F> } | { issue: Issue } {
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = body[name];
    const problem = problemOf(field, value);
    if (problem !== null) return { issue: { name, field, problem } };
    input[name] = value ?? (field.type === "integer" ? field.default : undefined) ?? null;
  }
  return { input: input as ParsedFields<F> };
}
