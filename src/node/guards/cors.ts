/**
 * CORS for the pages that may use the node: a trusted origin (see
 * `originTrusted`) or any origin whose request carries the node token gets
 * `access-control-allow-origin`, and preflights are answered for them.
 * The guards decide who may ask; these headers only let a browser read the
 * answer it was allowed.
 *
 * @module
 */

const ALLOW_HEADERS =
  "authorization, content-type, idempotency-key, mcp-protocol-version, mcp-session-id, last-event-id";
const EXPOSE_HEADERS = "idempotent-replayed, mcp-session-id, retry-after, content-disposition, x-svc-node";

/**
 * The answer to a CORS preflight from `origin`.
 *
 * @example
 * ```ts
 * import { preflight } from "./cors.ts";
 * preflight("http://localhost:5173").status; // 204
 * ```
 */
export function preflight(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "600",
      "vary": "origin",
      "x-svc-node": "1",
    },
  });
}

/**
 * `res` with the headers that let a page of `origin` read it.
 *
 * @example
 * ```ts
 * import { allowOrigin } from "./cors.ts";
 * allowOrigin(new Response("{}"), "http://localhost:5173").headers.get("access-control-allow-origin"); // "http://localhost:5173"
 * ```
 */
export function allowOrigin(res: Response, origin: string): Response {
  const headers = new Headers(res.headers);
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-expose-headers", EXPOSE_HEADERS);
  headers.append("vary", "origin");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
