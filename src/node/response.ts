/**
 * Answers: JSON with the node's headers, and errors as `{"error": "..."}`.
 *
 * @module
 */
import { stringifyExactJson } from "../wire/mod.ts";

/** Headers every JSON answer carries. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-svc-node": "1",
};

/**
 * A JSON answer from prebuilt JSON text.
 *
 * @example
 * ```ts
 * import { jsonText } from "./response.ts";
 * jsonText('{"ok":true}');
 * ```
 */
export function jsonText(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * A JSON answer from prebuilt JSON, already UTF-8.
 *
 * @example
 * ```ts
 * import { jsonBytes } from "./response.ts";
 * jsonBytes(new TextEncoder().encode('{"ok":true}'));
 * ```
 */
export function jsonBytes(
  bytes: Uint8Array<ArrayBuffer>,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(bytes, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * A JSON answer; a `bigint` (an integer beyond 2^53 in a manifest) is written
 * as its digits.
 *
 * @example
 * ```ts
 * import { json } from "./response.ts";
 * json({ ok: true });
 * ```
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(stringifyExactJson(body), status, headers);
}

/**
 * An error answer: `{"error": message}` with `status`.
 *
 * @example
 * ```ts
 * import { errorResponse } from "./response.ts";
 * errorResponse(404, "no such path");
 * ```
 */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ error: message }, status, headers);
}
