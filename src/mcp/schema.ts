/**
 * The catalog's input schemas as zod schemas, for the tools: strict objects
 * (an unknown argument is refused, and the listed JSON schema says
 * `additionalProperties: false`), each field described as the catalog says.
 *
 * @module
 */
import { z } from "zod/v3";
import { aboutOf, type Field, type Fields, mayLeaveOut } from "../catalog/mod.ts";

function base(field: Field): z.ZodTypeAny {
  switch (field.type) {
    case "integer": {
      const n = z.number().int().min(field.min);
      return field.max === undefined ? n : n.max(field.max);
    }
    case "string": {
      if (field.enum) return z.enum(field.enum as [string, ...string[]]);
      let s = z.string();
      if (field.minLength !== undefined) s = s.min(field.minLength);
      if (field.maxLength !== undefined) s = s.max(field.maxLength);
      return s;
    }
    case "boolean":
      return z.boolean();
    case "scalar":
      return z.union([
        field.maxLength === undefined ? z.string() : z.string().max(field.maxLength),
        z.number(),
        z.boolean(),
      ]);
    case "record":
      return z.record(z.unknown());
    case "array": {
      let a = z.array(zodOf(field.items));
      if (field.minItems !== undefined) a = a.min(field.minItems);
      if (field.maxItems !== undefined) a = a.max(field.maxItems);
      return a;
    }
    case "object":
      return objectOf(field.fields);
  }
}

/**
 * The zod schema of one field: optional when it may be left out, described
 * when it says what it is.
 *
 * @example
 * ```ts
 * import { zodOf } from "./schema.ts";
 * zodOf({ type: "integer", min: 1, max: 9, optional: true, about: "A digit." }).safeParse(10).success; // false
 * ```
 */
export function zodOf(field: Field): z.ZodTypeAny {
  let schema = base(field);
  if (mayLeaveOut(field)) schema = schema.optional();
  const about = aboutOf(field);
  return about === "" ? schema : schema.describe(about);
}

/**
 * A strict zod object of `fields`.
 *
 * @example
 * ```ts
 * import { objectOf } from "./schema.ts";
 * objectOf({ slug: { type: "string", about: "Slug." } }).safeParse({ slug: "a", more: 1 }).success; // false
 * ```
 */
export function objectOf(fields: Fields): z.AnyZodObject {
  return z.object(Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, zodOf(f)]))).strict();
}
