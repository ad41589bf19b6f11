/**
 * Delta Sharing's requests, typed: a `QueryTableRequest` body held to the
 * catalog's one schema of it, query-string versions, and the capabilities
 * a client sends (`delta-sharing-capabilities`), with the protocol's error
 * codes and words.
 *
 * @module
 */
import { checkFields, type Issue, type ParsedFields, QUERY_TABLE_REQUEST } from "../catalog/mod.ts";
import { SharingError } from "./errors.ts";
import type { ResponseFormat } from "./lines.ts";

/** The protocol's `QueryTableRequest`, checked: a field left out is null. */
export type QueryTableRequest = ParsedFields<typeof QUERY_TABLE_REQUEST>;

function said(issue: Issue): string {
  const { name, field } = issue;
  if (field.type === "integer") return `${name} must be a whole number from ${field.min} to ${field.max}`;
  if (field.type === "array") return `${name} must be a list of strings`;
  return `${name} must be a string`;
}

/**
 * The `QueryTableRequest` of a parsed JSON body; fields the protocol adds
 * that the node does not use are ignored. A body that is no object is a
 * malformed request; a field of the wrong type or out of range an invalid
 * parameter value.
 *
 * @example
 * ```ts
 * import { queryTableRequest } from "./request.ts";
 * queryTableRequest({ limitHint: 10 }).limitHint; // 10
 * queryTableRequest({}).version; // null
 * ```
 */
export function queryTableRequest(body: unknown): QueryTableRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new SharingError(400, "MALFORMED_REQUEST", "the body must be a JSON object");
  }
  const checked = checkFields(QUERY_TABLE_REQUEST, body as Record<string, unknown>);
  if ("issue" in checked) throw new SharingError(400, "INVALID_PARAMETER_VALUE", said(checked.issue));
  return checked.input;
}

/**
 * The version named by query parameter `name` of `url`, or null when it is
 * absent.
 *
 * @example
 * ```ts
 * import { versionParam } from "./request.ts";
 * versionParam(new URL("http://x/?version=3"), "version"); // 3
 * ```
 */
export function versionParam(url: URL, name: string): number | null {
  const text = url.searchParams.get(name);
  if (text === null) return null;
  if (!/^\d{1,15}$/.test(text)) {
    throw new SharingError(400, "INVALID_PARAMETER_VALUE", `${name} must be a whole number`);
  }
  return Number(text);
}

/**
 * The capabilities a client sent (`delta-sharing-capabilities`), keys and
 * values lowercased.
 *
 * @example
 * ```ts
 * import { capabilitiesOf } from "./request.ts";
 * capabilitiesOf(new Headers({ "delta-sharing-capabilities": "responseformat=delta,parquet" })).get("responseformat");
 * // ["delta", "parquet"]
 * ```
 */
export function capabilitiesOf(headers: Headers): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of (headers.get("delta-sharing-capabilities") ?? "").split(";")) {
    const [key, values = ""] = item.split("=", 2);
    if (key.trim()) out.set(key.trim().toLowerCase(), values.split(",").map((v) => v.trim().toLowerCase()));
  }
  return out;
}

/**
 * The answer format for `capabilities`: parquet whenever the client takes
 * it (the node's tables have no feature it cannot carry), else delta.
 *
 * @example
 * ```ts
 * import { formatOf } from "./request.ts";
 * formatOf(new Map([["responseformat", ["delta"]]])); // "delta"
 * ```
 */
export function formatOf(capabilities: Map<string, string[]>): ResponseFormat {
  const asked = capabilities.get("responseformat") ?? ["parquet"];
  return asked.includes("parquet") || !asked.includes("delta") ? "parquet" : "delta";
}
