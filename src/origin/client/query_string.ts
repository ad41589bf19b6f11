/**
 * Query strings of call parameters: undefined and null ones dropped
 * (origin-wire 1.4).
 *
 * @module
 */

/**
 * A query string of `params` without the undefined and null ones (`?a=1&b=x`, or "").
 *
 * @example
 * ```ts
 * import { queryString } from "./query_string.ts";
 * queryString({ q: "tides", page: 2, kind: undefined }); // "?q=tides&page=2"
 * ```
 */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : "";
}
