/**
 * Short messages for people from zod validation issues, for `-32602`
 * answers: `missing argument slug`, `unknown argument colour`, `argument
 * limit must be at most 200`. Works on the issues of zod 3 (the node's tool
 * schemas) and zod 4 (the MCP SDK's request schemas), which differ in field
 * names; a dump of the issues never reaches the client.
 *
 * @module
 */

/** The fields of a zod 3 or zod 4 issue that the messages use. */
export interface ZodIssueLike {
  /** Issue code, e.g. `invalid_type`, `unrecognized_keys`, `too_big`. */
  code: string;
  /** Where in the input. */
  path: PropertyKey[];
  /** zod's own message (the fallback). */
  message: string;
  /** `unrecognized_keys`: the keys. */
  keys?: string[];
  /** `invalid_type`: the expected type; `invalid_literal` (zod 3): the value. */
  expected?: unknown;
  /** `too_big`: the bound. */
  maximum?: number | bigint;
  /** `too_small`: the bound. */
  minimum?: number | bigint;
  /** Whether the bound itself is allowed. */
  inclusive?: boolean;
  /** What was measured (zod 3): `number`, `string`, `array`, ... */
  type?: string;
  /** What was measured (zod 4). */
  origin?: string;
  /** Allowed values: zod 3 `options`, zod 4 `values`. */
  options?: unknown[];
  /** Allowed values (zod 4). */
  values?: unknown[];
}

const TYPES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
};

/** `records[0].name`, `params.name`. */
function pathName(path: PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`).join("");
}

function at(input: unknown, path: PropertyKey[]): { present: boolean } {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key as string)) return { present: false };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: value !== undefined };
}

function bound(issue: ZodIssueLike, big: boolean): string {
  const limit = String(big ? issue.maximum : issue.minimum);
  const what = issue.type ?? issue.origin;
  const word = issue.inclusive === false ? (big ? "below" : "above") : (big ? "at most" : "at least");
  if (what === "string") return `must be ${word} ${limit} characters long`;
  if (what === "array" || what === "set") return `must have ${word} ${limit} items`;
  return `must be ${word} ${limit}`;
}

/**
 * One issue as a short phrase; `noun` names what the path points into
 * (`argument` for a tool's arguments, empty for a request's params).
 *
 * @example
 * ```ts
 * import { describeIssue } from "./issues.ts";
 * describeIssue({ code: "invalid_type", path: ["slug"], message: "Required", expected: "string" }, {}, "argument");
 * // "missing argument slug"
 * ```
 */
export function describeIssue(issue: ZodIssueLike, input: unknown, noun: string): string {
  const name = pathName(issue.path);
  const subject = [noun, name].filter(Boolean).join(" ");
  switch (issue.code) {
    case "unrecognized_keys": {
      const keys = (issue.keys ?? []).map((k) => pathName([...issue.path, k]));
      return `unknown ${noun ? `${noun}${keys.length > 1 ? "s" : ""} ` : ""}${keys.join(", ")}`;
    }
    case "invalid_type":
      if (!at(input, issue.path).present) return `missing ${subject}`;
      return `${subject} must be ${TYPES[String(issue.expected)] ?? String(issue.expected)}`;
    case "too_big":
      return `${subject} ${bound(issue, true)}`;
    case "too_small":
      return `${subject} ${bound(issue, false)}`;
    case "invalid_enum_value":
    case "invalid_value":
      return `${subject} must be one of ${
        (issue.options ?? issue.values ?? []).map((v) => JSON.stringify(v)).join(", ")
      }`;
    case "invalid_literal":
      return `${subject} must be ${JSON.stringify(issue.expected)}`;
    default: {
      const message = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
      return subject ? `${subject}: ${message}` : message;
    }
  }
}

/**
 * The first few issues of a failed parse, joined with `; `.
 *
 * @example
 * ```ts
 * import { describeIssues } from "./issues.ts";
 * describeIssues([{ code: "unrecognized_keys", path: [], message: "", keys: ["colour"] }], {}, "argument");
 * // "unknown argument colour"
 * ```
 */
export function describeIssues(issues: readonly ZodIssueLike[], input: unknown, noun: string): string {
  const phrases = [...new Set(issues.map((issue) => describeIssue(issue, input, noun)))];
  return phrases.slice(0, 3).join("; ") + (phrases.length > 3 ? `; and ${phrases.length - 3} more` : "");
}
