/**
 * The origin clients reach the node at, for the URLs it hands out (part URLs
 * in manifests, MCP): the request's own authority, the very value the Host
 * guard checked, with `https` when a proxy says it spoke TLS
 * (`X-Forwarded-Proto: https`).
 *
 * @module
 */
import type { RequestHeadView } from "../http/mod.ts";

/**
 * The public origin for a request to `url`.
 *
 * @example
 * ```ts
 * import { publicOrigin } from "./public_url.ts";
 * const req = new Request("http://data.example:8686/x", { headers: { "x-forwarded-proto": "https" } });
 * publicOrigin(req); // "https://data.example:8686"
 * ```
 */
export function publicOrigin(req: RequestHeadView): string {
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase();
  return `${proto === "https" ? "https" : "http"}://${url.host}`;
}
