/**
 * An operation's input read from a request by the catalog's schema: the
 * path's parameters, the query string's fields (integers held to their
 * bounds with the origin's messages, `querystring/limit must be >= 1 and <=
 * 1000`), or the JSON body's fields (`body/limit must be integer`).
 *
 * @module
 */
import {
  type Field,
  type Fields,
  type IntegerField,
  mayLeaveOut,
  type Operation,
  type Problem,
  problemOf,
  type StringField,
} from "../../catalog/mod.ts";
import { NodeError } from "../../errors/mod.ts";
import { readJsonBody } from "../../http/mod.ts";
import type { Params } from "../router.ts";
import { intParam } from "./_params.ts";

function bad(message: string): never {
  throw new NodeError("bad-request", message);
}

function queryField(url: URL, name: string, field: Field): unknown {
  if (field.type === "integer") {
    const fallback = field.default ?? (mayLeaveOut(field) ? null : undefined);
    return intParam(url, name, { min: field.min, max: field.max, fallback });
  }
  if (field.type === "array") {
    const all = url.searchParams.getAll(name);
    if (all.length === 0 && mayLeaveOut(field)) return null;
    if (field.maxItems !== undefined && all.length > field.maxItems) {
      bad(`querystring/${name} takes at most ${field.maxItems} values`);
    }
    return all;
  }
  const raw = url.searchParams.get(name);
  if (raw === null) {
    if (mayLeaveOut(field)) return null;
    bad(`querystring must have required property '${name}'`);
  }
  if (field.type === "boolean") return raw === "true" || raw === "1";
  if (field.type === "string") checkString(`querystring/${name}`, name, raw, field);
  return raw;
}

/** How the node words an issue, as the origin's validator does (`body/limit must be integer`). */
function worded(where: string, name: string, field: Field, problem: Problem): string {
  switch (problem) {
    case "missing":
      return `${where.split("/")[0]} must have required property '${name}'`;
    case "type":
      return `${where} must be ${field.type === "array" ? "array" : field.type}`;
    case "range": {
      const { min, max } = field as IntegerField;
      return `${where} must be ${max === undefined ? `>= ${min}` : `>= ${min} and <= ${max}`}`;
    }
    case "length": {
      const { minLength, maxLength } = field as StringField;
      return minLength !== undefined && maxLength !== undefined
        ? `${where} must be ${minLength}-${maxLength} characters`
        : `${where} must NOT have more than ${maxLength} characters`;
    }
    case "enum":
      return `${where} must be one of ${(field as StringField).enum!.join(", ")}`;
  }
}

function checkString(where: string, name: string, value: string, field: StringField): void {
  const problem = problemOf(field, value);
  if (problem !== null) bad(worded(where, name, field, problem));
}

function bodyField(body: Record<string, unknown>, name: string, field: Field): unknown {
  const value = body[name];
  const problem = problemOf(field, value);
  if (problem !== null) bad(worded(`body/${name}`, name, field, problem));
  return value ?? (field.type === "integer" ? field.default : undefined) ?? null;
}

/**
 * The input `op` is asked for by a GET: its path's parameters from
 * `params`, its other fields from the query string of `url`.
 *
 * @example
 * ```ts
 * import { CATALOG } from "../../catalog/mod.ts";
 * import { queryInput } from "./_input.ts";
 * queryInput(CATALOG.project_detail, new URL("http://x/projects/cities"), { slug: "cities" }); // { slug: "cities" }
 * ```
 */
export function queryInput(op: Operation, url: URL, params: Params): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(op.input as Fields)) {
    input[name] = Object.hasOwn(params, name) ? params[name] : queryField(url, name, field);
  }
  return input;
}

/**
 * The input `op` is asked for by a POST: its path's parameters from
 * `params`, its `in: "query"` fields from the query string, the others from
 * the request's JSON body (an object).
 */
export async function bodyInput(
  op: Operation,
  req: Request,
  url: URL,
  params: Params,
): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) bad("body must be a JSON object");
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(op.input as Fields)) {
    input[name] = Object.hasOwn(params, name)
      ? params[name]
      : field.in === "query"
      ? queryField(url, name, field)
      : bodyField(body as Record<string, unknown>, name, field);
  }
  return input;
}
