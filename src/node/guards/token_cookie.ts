/**
 * The browser interface's login cookie. A browser cannot send
 * `Authorization: Bearer`, so after the token is posted to `/ui/login` the
 * node sets a cookie that stands for the token on requests from the node's
 * own pages only (see `fromOwnPage` in `cross_site.ts`).
 *
 * The cookie does not hold the token: its value is `<exp>.<hex HMAC-SHA256>`,
 * keyed with the token over `svc-ui-session/v2/<origin>/<exp>`, so a leaked
 * cookie never yields the token (which, unlike the cookie, passes the Host
 * and cross-site guards and earns CORS), expires on its own, and dies with a
 * new token. It is bound to the node as its browser reaches it, the public
 * origin (scheme, host and port): a value copied to another node with the
 * same token, or renamed for another port, is refused. Nodes behind one
 * balancer share an origin and so share logins. Cookies are scoped to a
 * host, not a port, so the name carries the port and two nodes on one
 * machine do not overwrite each other's login.
 *
 * @module
 */
import { publicOrigin, type RequestHeadView } from "../../http/mod.ts";
import { createHmac } from "node:crypto";
import { sameSecret } from "./token.ts";

/** How long a login lasts: 12 hours. */
export const SESSION_LIFETIME_S = 12 * 3600;

/**
 * The cookies of a `Cookie` header by name (the first of a repeated name wins;
 * pairs without `=` are skipped).
 *
 * @example
 * ```ts
 * import { parseCookies } from "./token_cookie.ts";
 * parseCookies("a=1; b=two=2").get("b"); // "two=2"
 * ```
 */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null) return cookies;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/**
 * The login cookie's name for a node reached at `url`: `svc_node_<port>`.
 *
 * @example
 * ```ts
 * import { sessionCookieName } from "./token_cookie.ts";
 * sessionCookieName(new URL("http://127.0.0.1:8686/")); // "svc_node_8686"
 * ```
 */
export function sessionCookieName(url: URL): string {
  return `svc_node_${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/**
 * The cookie value that stands for `token` at the node reached at `origin`
 * (its public origin, `http://127.0.0.1:8686`) until `exp` (unix seconds).
 *
 * @example
 * ```ts
 * import { sessionValue } from "./token_cookie.ts";
 * sessionValue("s3cret", "http://127.0.0.1:8686", 1764000000); // "1764000000.<64 hex>"
 * ```
 */
export function sessionValue(token: string, origin: string, exp: number): string {
  const signed = `svc-ui-session/v2/${origin.toLowerCase()}/${exp}`;
  return `${exp}.${createHmac("sha256", token).update(signed).digest("hex")}`;
}

/**
 * Whether `req` (for `url`) carries an unexpired login cookie for `token`,
 * made for the node at the request's public origin, at `nowMs`. This says
 * nothing of where the request came from: the handler counts the cookie only
 * for requests from the node's own pages (`fromNodePage`).
 *
 * @example
 * ```ts
 * import { hasSessionCookie, sessionValue } from "./token_cookie.ts";
 * const url = new URL("http://127.0.0.1:8686/projects");
 * const value = sessionValue("t", "http://127.0.0.1:8686", 2000);
 * const req = new Request(url, { headers: { cookie: `svc_node_8686=${value}` } });
 * hasSessionCookie(req, url, "t", 1000 * 1000); // true
 * ```
 */
export function hasSessionCookie(req: RequestHeadView, url: URL, token: string, nowMs: number): boolean {
  const value = parseCookies(req.headers.get("cookie")).get(sessionCookieName(url));
  const m = value === undefined ? null : /^(\d{1,12})\.[0-9a-f]{64}$/.exec(value);
  if (m === null || Number(m[1]) <= nowMs / 1000) return false;
  return sameSecret(value!, sessionValue(token, publicOrigin(req), Number(m[1])));
}

function attributes(origin: string): string {
  return `Path=/; HttpOnly; SameSite=Strict${origin.startsWith("https:") ? "; Secure" : ""}`;
}

/**
 * The `Set-Cookie` value that logs the browser of `req` in for
 * {@linkcode SESSION_LIFETIME_S} from `nowMs`, bound to the node's public
 * origin; `Secure` whenever that origin is https (a proxy that speaks TLS
 * says so in `X-Forwarded-Proto` or `Forwarded`).
 *
 * @example
 * ```ts
 * import { loginCookie } from "./token_cookie.ts";
 * loginCookie(new Request("http://127.0.0.1:8686/ui/login"), "t", Date.now());
 * // "svc_node_8686=...; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict"
 * ```
 */
export function loginCookie(req: RequestHeadView, token: string, nowMs: number): string {
  const exp = Math.floor(nowMs / 1000) + SESSION_LIFETIME_S;
  const origin = publicOrigin(req);
  const value = sessionValue(token, origin, exp);
  return `${sessionCookieName(new URL(req.url))}=${value}; Max-Age=${SESSION_LIFETIME_S}; ${attributes(origin)}`;
}

/**
 * The `Set-Cookie` value that removes the login cookie of `req`'s browser.
 *
 * @example
 * ```ts
 * import { logoutCookie } from "./token_cookie.ts";
 * logoutCookie(new Request("http://127.0.0.1:8686/ui/logout"));
 * // "svc_node_8686=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"
 * ```
 */
export function logoutCookie(req: RequestHeadView): string {
  return `${sessionCookieName(new URL(req.url))}=; Max-Age=0; ${attributes(publicOrigin(req))}`;
}
