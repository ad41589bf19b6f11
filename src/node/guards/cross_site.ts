/**
 * The cross-site guard: a web page of another origin may not use a node
 * (its browser would send the request with the user's network position)
 * unless it holds the node token. Pages served from loopback are the
 * operator's own tools and may use a loopback node.
 *
 * @module
 */
import { isLoopback, publicOrigin, type RequestHeadView } from "../../http/mod.ts";
import { isPagePath } from "../ui/views/mod.ts";

/** The host name of an `Origin` value, or null when it is not a URL (`null`, garbage). */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * Whether `origin` (an `Origin` header) may use the node without its token:
 * the node's own origin, or for a loopback node any loopback origin.
 *
 * @example
 * ```ts
 * import { originTrusted } from "./cross_site.ts";
 * originTrusted("http://localhost:5173", new URL("http://127.0.0.1:8686/"), true); // true
 * originTrusted("https://evil.example", new URL("http://127.0.0.1:8686/"), true); // false
 * ```
 */
export function originTrusted(origin: string, url: URL, loopbackNode: boolean): boolean {
  if (origin.toLowerCase() === url.origin.toLowerCase()) return true;
  const host = originHost(origin);
  return loopbackNode && host !== null && isLoopback(host);
}

/**
 * Whether `req` comes from a web page of another origin: by its `Origin`
 * when it sends one (see {@linkcode originTrusted}), else by the browser's
 * `Sec-Fetch-Site`.
 *
 * @example
 * ```ts
 * import { isCrossSite } from "./cross_site.ts";
 * isCrossSite(new Request("http://127.0.0.1:8686/projects", { headers: { origin: "https://evil.example" } }), true); // true
 * ```
 */
export function isCrossSite(req: RequestHeadView, loopbackNode: boolean, url: URL = new URL(req.url)): boolean {
  const origin = req.headers.get("origin");
  if (origin !== null) return !originTrusted(origin, url, loopbackNode);
  const site = req.headers.get("sec-fetch-site")?.toLowerCase();
  return site !== undefined && site !== "same-origin" && site !== "none";
}

/**
 * Whether `req` comes from one of the node's own pages (or from no page at
 * all: a typed address, a bookmark): an `Origin`, when sent, must be the
 * node's own origin exactly (as reached: the request's authority, `https`
 * when a proxy says so), and `Sec-Fetch-Site`, when sent, `same-origin` or
 * `none`. Stricter than {@linkcode isCrossSite}: other loopback pages do not
 * count. Login and logout forms must come from such requests; the login
 * cookie asks for more ({@linkcode fromNodePage}).
 *
 * @example
 * ```ts
 * import { fromOwnPage } from "./cross_site.ts";
 * fromOwnPage(new Request("http://127.0.0.1:8686/projects", { headers: { origin: "http://127.0.0.1:8686" } })); // true
 * fromOwnPage(new Request("http://127.0.0.1:8686/projects", { headers: { origin: "http://127.0.0.1:5173" } })); // false
 * ```
 */
export function fromOwnPage(req: RequestHeadView, url: URL = new URL(req.url)): boolean {
  const origin = req.headers.get("origin")?.toLowerCase();
  if (origin !== undefined && origin !== url.origin.toLowerCase() && origin !== publicOrigin(req).toLowerCase()) {
    return false;
  }
  const site = req.headers.get("sec-fetch-site")?.toLowerCase();
  return site === undefined || site === "same-origin" || site === "none";
}

/**
 * Whether `req` is a browser opening a page of the node's interface from a
 * link on another site (a link shared in a chat, a README): a top-level
 * navigation (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`) by
 * GET or HEAD to `/`, `/ui/mcp` or `/p/...`. Such a request may pass the
 * cross-site guard: the page opens in the reader's browser, where the site
 * that linked it cannot read it, and it changes nothing; the login cookie
 * (`SameSite=Strict`) is not sent with it. Every other cross-site request,
 * a link to the API included, is still refused.
 *
 * @example
 * ```ts
 * import { opensFrontPage } from "./cross_site.ts";
 * const headers = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
 * opensFrontPage(new Request("http://127.0.0.1:8686/p/cities", { headers })); // true
 * opensFrontPage(new Request("http://127.0.0.1:8686/projects", { headers })); // false
 * ```
 */
export function opensFrontPage(req: RequestHeadView): boolean {
  return (req.method === "GET" || req.method === "HEAD") && isPagePath(new URL(req.url).pathname) &&
    req.headers.get("sec-fetch-mode")?.toLowerCase() === "navigate" &&
    req.headers.get("sec-fetch-dest")?.toLowerCase() === "document";
}

/**
 * Whether `req` shows it was made by a browser from one of the node's own
 * pages, which is where the login cookie stands for the token: the browser
 * said `Sec-Fetch-Site: same-origin`, or sent the node's own origin as
 * `Origin`. A request that shows neither (curl with a copied cookie, any
 * client that sends no `Origin`) gets nothing for the cookie. The
 * interface's pages are the exception a browser needs: opened from the
 * address bar, a bookmark or a reload (`Sec-Fetch-Site: none`), they are
 * the page rather than the login form.
 *
 * @example
 * ```ts
 * import { fromNodePage } from "./cross_site.ts";
 * const url = "http://127.0.0.1:8686/projects";
 * fromNodePage(new Request(url, { headers: { "sec-fetch-site": "same-origin" } })); // true
 * fromNodePage(new Request(url)); // false
 * ```
 */
export function fromNodePage(req: RequestHeadView, url: URL = new URL(req.url)): boolean {
  if (!fromOwnPage(req, url)) return false;
  const site = req.headers.get("sec-fetch-site")?.toLowerCase();
  if (site === "same-origin" || req.headers.get("origin") !== null) return true;
  return site === "none" && (req.method === "GET" || req.method === "HEAD") && isPagePath(url.pathname);
}
