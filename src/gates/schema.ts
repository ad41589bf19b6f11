/**
 * The schema gate: every required field present with its type, unknown
 * fields only where the schema allows extras.
 *
 * @module
 */
import type { ExactJson, SchemaDef } from "../wire/mod.ts";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Field types a schema may name. */
export const FIELD_TYPES: readonly string[] = ["string", "integer", "number", "boolean"];

/** A number as a reason shows it: whole up to 24 digits, else its first digits and how many there are. */
function shortNumber(value: bigint): string {
  const text = value.toString();
  return text.length <= 24 ? text : `${text.slice(0, 12)}... (${text.replace("-", "").length} digits)`;
}

/** Why `value` is not of `type` for field `name`, or null when it is. */
function typeProblem(name: string, value: ExactJson, type: string): string | null {
  const field = JSON.stringify(name);
  switch (type) {
    case "string":
      if (typeof value !== "string") return `${field} must be string`;
      return wellFormed(value) ? null : `${field} ${NOT_UNICODE}`;
    case "boolean":
      return typeof value === "boolean" ? null : `${field} must be boolean`;
    case "number":
      if (typeof value === "number") return Number.isFinite(value) ? null : `${field} is out of range for a number`;
      // A whole number written without a fraction comes as a bigint beyond 2^53: stored as a float64 it must
      // read back as what was sent.
      if (typeof value === "bigint") {
        const double = Number(value);
        if (!Number.isFinite(double)) return `${field} is out of range for a number`;
        return BigInt(double) === value
          ? null
          : `${field} is not exact as a number (${shortNumber(value)} would not read back as sent)`;
      }
      return `${field} must be number`;
    case "integer":
      if (typeof value === "bigint") {
        return value >= INT64_MIN && value <= INT64_MAX ? null : `${field} is out of range for an integer`;
      }
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return typeof value === "number" && !Number.isFinite(value)
          ? `${field} is out of range for an integer`
          : `${field} must be integer`;
      }
      // 1e19 parses as a whole float: in range or not is decided on its exact value.
      return BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX
        ? null
        : `${field} is out of range for an integer`;
  }
  return `${field} has an unknown type ${type}`;
}

/**
 * What a text holding a lone surrogate (`"\ud800"`, valid JSON, no Unicode
 * text) is: stored as UTF-8 it would read back as U+FFFD, another record
 * than the one sent, and two such texts would be one.
 */
const NOT_UNICODE = "is not valid Unicode text (it holds a lone surrogate)";

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` is Unicode text (`String.prototype.isWellFormed`, which Node 20's TypeScript library lacks). */
function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `text` with each lone surrogate made U+FFFD, to be shown. */
function shown(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE, "g"), "\uFFFD");
}

/**
 * Why an extra field's `value` (at `path`) cannot be stored as sent: the
 * first number float64 cannot hold (1e400) or text, key or value, that is
 * not Unicode; null when none. Walked with a stack of its own (depth costs
 * no call stack).
 */
function unstorable(value: ExactJson, path: string): string | null {
  const work: [ExactJson, string][] = [[value, path]];
  while (work.length > 0) {
    const [item, at] = work.pop()!;
    if (typeof item === "number") {
      if (!Number.isFinite(item)) return `${JSON.stringify(at)} is out of range for a number`;
    } else if (typeof item === "string") {
      if (!wellFormed(item)) return `${JSON.stringify(shown(at))} ${NOT_UNICODE}`;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) work.push([item[i], `${at}[${i}]`]);
    } else if (item !== null && typeof item === "object") {
      const entries = Object.entries(item);
      for (const [key] of entries) {
        if (!wellFormed(key)) return `a field name in ${JSON.stringify(shown(at))} ${NOT_UNICODE}`;
      }
      for (let i = entries.length - 1; i >= 0; i--) work.push([entries[i][1], `${at}.${entries[i][0]}`]);
    }
  }
  return null;
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
    const problem = typeProblem(field.name, value, field.type);
    if (problem) return `line ${line}: ${problem}`;
  }
  for (const [key, value] of Object.entries(record)) {
    if (known.has(key)) continue;
    if (!wellFormed(key)) return `line ${line}: a field name ${NOT_UNICODE}`;
    if (!schema.allowExtra) return `line ${line}: unknown field "${key}"`;
    const bad = unstorable(value, key);
    if (bad) return `line ${line}: ${bad}`;
  }
  return null;
}

/** Most bad lines a schema rejection names. */
export const MAX_SCHEMA_ERRORS = 20;

/** One bad line of a schema rejection, as the reference node gives it. */
export interface SchemaLineError {
  /** The line (record) of the batch, counted from 1. */
  line: number;
  /** What is wrong with it. */
  error: string;
}

/**
 * The schema problems of `records` (lines counted from 1): at most the first
 * {@linkcode MAX_SCHEMA_ERRORS} as `{line, error}`; `count` is how many
 * records break it in all, `reason` the one-line summary, which ends
 * `… (the first 20)` when more lines break the schema than it names (as the
 * reference node words it).
 *
 * @example
 * ```ts
 * import { schemaErrors } from "./schema.ts";
 * schemaErrors([{ id: 1 }, { id: "x" }], { fields: [{ name: "id", type: "integer" }], allowExtra: false });
 * // { errors: [{ line: 2, error: '"id" must be integer' }], count: 1, reason: 'line 2: "id" must be integer' }
 * ```
 */
export function schemaErrors(
  records: readonly ExactJson[],
  schema: SchemaDef,
): { errors: SchemaLineError[]; count: number; reason: string } {
  const named: string[] = [];
  const errors: SchemaLineError[] = [];
  let count = 0;
  for (const [i, record] of records.entries()) {
    const problem = schemaProblem(record, i + 1, schema);
    if (problem === null) continue;
    count++;
    if (errors.length >= MAX_SCHEMA_ERRORS) continue;
    named.push(problem);
    errors.push({ line: i + 1, error: problem.replace(/^line \d+: /, "") });
  }
  let reason = named.join("; ");
  if (count > errors.length) reason += ` … (the first ${MAX_SCHEMA_ERRORS})`;
  return { errors, count, reason };
}
