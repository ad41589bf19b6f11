/**
 * The cross-site guard: a web page of another origin may not use a node
 * (its browser would send the request with the user's network position)
 * unless it holds the node token.
 *
 * @module
 */

/**
 * Whether `req` comes from a web page of another origin, by the browser's own
 * `Sec-Fetch-Site` or, failing that, by `Origin` against the node's origin.
 *
 * @example
 * ```ts
 * import { isCrossSite } from "./cross_site.ts";
 * isCrossSite(new Request("http://127.0.0.1:8686/projects", { headers: { origin: "https://evil.example" } })); // true
 * ```
 */
export function isCrossSite(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site")?.toLowerCase();
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  return origin.toLowerCase() !== new URL(req.url).origin.toLowerCase();
}
