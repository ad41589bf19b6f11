/**
 * A call of an operation of the catalog: its path with the parameters
 * filled in (each encoded), its other fields in the query string (GET) or
 * in a JSON body (POST), sent with the transport rules of `http.ts` and the
 * operation's method and path as the route's name.
 *
 * @module
 */
import { type Fields, type Operation, pathParams } from "../catalog/mod.ts";
import { callJson, type CallOptions, type Endpoint } from "./http.ts";
import { ValueError } from "./errors.ts";

/**
 * The path and query string of a call of `op` with `input`; fields left
 * out (undefined or null) are not sent.
 *
 * @example
 * ```ts
 * import { CATALOG } from "../catalog/mod.ts";
 * import { operationPath } from "./operation_call.ts";
 * operationPath(CATALOG.read_page, { slug: "cities", limit: 10 }); // "/projects/cities/data?limit=10"
 * ```
 */
export function operationPath(op: Operation, input: Readonly<Record<string, unknown>>): string {
  const params = new Set(pathParams(op.path));
  const path = op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = input[name];
    if (value === undefined || value === null || value === "") throw new ValueError(`${op.name} needs ${name}`);
    return encodeURIComponent(String(value));
  });
  const query: string[] = [];
  for (const [name, field] of Object.entries(op.input as Fields)) {
    if (params.has(name) || (op.method !== "GET" && field.in !== "query")) continue;
    const value = input[name];
    if (value === undefined || value === null) continue;
    // Commas stay as they are: a list in one parameter (`have=a,b`) reads as the API writes it.
    for (const one of Array.isArray(value) ? value : [value]) {
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(one)).replaceAll("%2C", ",")}`);
    }
  }
  return query.length > 0 ? `${path}?${query.join("&")}` : path;
}

/**
 * The JSON body of a call of `op` with `input` (its body's fields), or
 * null for a GET.
 *
 * @example
 * ```ts
 * import { CATALOG } from "../catalog/mod.ts";
 * import { operationBody } from "./operation_call.ts";
 * operationBody(CATALOG.query, { slug: "cities", sql: "SELECT 1" }); // '{"sql":"SELECT 1"}'
 * ```
 */
export function operationBody(op: Operation, input: Readonly<Record<string, unknown>>): string | null {
  if (op.method === "GET") return null;
  const params = new Set(pathParams(op.path));
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(op.input as Fields)) {
    if (!params.has(name) && field.in !== "query" && input[name] !== undefined) body[name] = input[name];
  }
  return JSON.stringify(body);
}

/**
 * Calls `op` on `endpoint` with `input`; resolves with the answer's parsed
 * body.
 */
export async function callOperation(
  endpoint: Endpoint,
  op: Operation,
  input: Readonly<Record<string, unknown>>,
  options: CallOptions = {},
): Promise<unknown> {
  const route = `${op.method} ${op.path}`;
  const answer = await callJson(endpoint, op.method, operationPath(op, input), operationBody(op, input), {}, {
    route,
    ...options,
  });
  return answer.body;
}
