/**
 * The origin clients reach the node at, for the URLs it hands out (part URLs
 * in manifests, MCP): the request's own authority, the very value the Host
 * guard checked, with `https` when a proxy says it spoke TLS
 * (`X-Forwarded-Proto: https`, or `Forwarded: proto=https` as RFC 7239
 * writes it). A client that claims https falsely only gets https URLs and
 * cookies marked `Secure`, which harms no one else.
 *
 * @module
 */
import type { RequestHeadView } from "./types.ts";

/**
 * The public origin for a request to `url`.
 *
 * @example
 * ```ts
 * import { publicOrigin } from "./public_origin.ts";
 * const req = new Request("http://data.example:8686/x", { headers: { "x-forwarded-proto": "https" } });
 * publicOrigin(req); // "https://data.example:8686"
 * publicOrigin(new Request("http://data.example/", { headers: { forwarded: "for=10.0.0.1;proto=https" } }));
 * // "https://data.example"
 * ```
 */
export function publicOrigin(req: RequestHeadView): string {
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase() ??
    /(?:^|[;,\s])proto="?([A-Za-z]+)"?/i.exec(req.headers.get("forwarded")?.split(",")[0] ?? "")?.[1].toLowerCase();
  return `${proto === "https" ? "https" : "http"}://${url.host}`;
}
