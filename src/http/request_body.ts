/**
 * Request body hygiene: declared sizes, the 1 MiB cap and JSON only.
 *
 * @module
 */

import { NodeError } from "../errors/mod.ts";
import { JSON_MAX_DEPTH, JsonTooDeep, WIRE_LIMITS } from "../wire/mod.ts";

/** The largest request body the node reads: 1 MiB. */
export const MAX_BODY_BYTES: number = WIRE_LIMITS.bodyBytes;

/** Methods whose requests carry a body the node would read. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** The media type of an HTML form's body, which the browser interface's login and logout take instead of JSON. */
export const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * Refuses a request whose `Content-Length` is malformed or negative (400),
 * whose declared body is over `limit` (413), or, for POST/PUT/PATCH, whose
 * body is not `type` (415; JSON unless the route takes a form).
 *
 * @example
 * ```ts
 * import { checkBodyHeaders } from "./request_body.ts";
 * checkBodyHeaders(new Request("http://x/", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
 * ```
 */
export function checkBodyHeaders(req: Request, limit = MAX_BODY_BYTES, type = "application/json"): void {
  const length = req.headers.get("content-length");
  if (length !== null) {
    if (!/^\s*\d+\s*$/.test(length)) {
      throw new NodeError("bad-request", "Content-Length must be a non-negative integer");
    }
    if (Number(length) > limit) throw new NodeError("too-large", `request body is over ${limit} bytes`);
  }
  if (!BODY_METHODS.has(req.method)) return;
  const given = req.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (given !== type) {
    throw new NodeError(
      "unsupported-type",
      type === "application/json"
        ? "request bodies must be JSON: send Content-Type: application/json"
        : `this route takes a form: send Content-Type: ${type}`,
    );
  }
}

/**
 * Reads and parses a JSON body (with `parse`, `JSON.parse` by default),
 * stopping at `limit` bytes (413) whatever the request declared; 400 when the
 * body is not JSON.
 *
 * @example
 * ```ts
 * import { readJsonBody } from "./request_body.ts";
 * await readJsonBody(new Request("http://x/", { method: "POST", body: '{"a":1}' })); // { a: 1 }
 * ```
 */
export async function readJsonBody(
  req: Request,
  limit = MAX_BODY_BYTES,
  parse: (text: string) => unknown = JSON.parse,
): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new NodeError("too-large", `request body is over ${limit} bytes`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    // Valid JSON past the nesting a reader takes is said to be so, not called invalid.
    if (e instanceof JsonTooDeep || e instanceof RangeError) {
      throw new NodeError("bad-request", `body nests JSON deeper than ${JSON_MAX_DEPTH} levels, the limit`);
    }
    throw new NodeError("bad-request", "body is not valid JSON");
  }
}
