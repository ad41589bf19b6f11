/**
 * The browser interface's routes: its pages (`GET /`, `/ui/mcp` and
 * `/p/{slug}...`, HTML holding their data, see `page_route.ts`; the login
 * page instead on a node with a token, for a browser not logged in),
 * `GET /ui/app.js` and `GET /ui/app.css`, and the login and logout forms
 * (`POST /ui/login`, `POST /ui/logout`) of a node with a token. The script
 * draws further pages from the JSON API, same origin. The node's guards run
 * before these as before any route.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../../http/mod.ts";
import { fromOwnPage } from "../guards/cross_site.ts";
import { sameSecret } from "../guards/token.ts";
import { loginCookie, logoutCookie } from "../guards/token_cookie.ts";

import { NodeError } from "../../errors/mod.ts";
import { errorHtml, loginHtml } from "./pages.ts";
import { getPage, type RouteOf } from "./page_route.ts";
import { APP_JS } from "./_app_js.ts";
import { APP_CSS } from "./style.ts";
import { PROJECT_PAGES } from "./views/mod.ts";
import type { RouteDecl } from "../router.ts";

/** The Content-Security-Policy of the interface's HTML: its own script, style and requests, nothing else. */
export const UI_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
  "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Headers every answer of the interface carries. */
const COMMON: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-svc-node": "1",
};

/**
 * The referrer policy of the interface's HTML: no `Referer` to any other
 * origin (a README link never learns the node's address), as `no-referrer`
 * would; but under `no-referrer` browsers send `Origin: null` with a form's
 * POST, which the cross-site guard rightly refuses, so the login and logout
 * forms could never be posted. Under `same-origin` they carry their origin.
 */
const HTML_REFERRER_POLICY = "same-origin";

/** The largest login form read: a token is short. */
const LOGIN_BODY_LIMIT = 4096;

/** Headers every HTML answer of the interface carries. */
const HTML_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  "content-security-policy": UI_CSP,
  "cache-control": "no-store",
  "referrer-policy": HTML_REFERRER_POLICY,
};

function html(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { ...HTML_HEADERS, "content-type": "text/html; charset=utf-8", ...headers },
  });
}

/** A static file of the interface. */
interface Asset {
  body: string;
  type: string;
  etag: string;
}

function asset(body: string, type: string): Asset {
  return { body, type, etag: `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"` };
}

const ASSETS: Readonly<Record<string, Asset>> = {
  "app.js": asset(APP_JS, "text/javascript; charset=utf-8"),
  "app.css": asset(APP_CSS, "text/css; charset=utf-8"),
};

/**
 * Whether `/ui/{name}` is one of the interface's static files.
 *
 * @example
 * ```ts
 * import { isAsset } from "./routes.ts";
 * isAsset("app.js"); // true
 * isAsset("login"); // false
 * ```
 */
export function isAsset(name: string): boolean {
  return Object.hasOwn(ASSETS, name);
}

/**
 * A page of the interface (`GET /`, `/ui/mcp`, `/p/{slug}...`): its HTML
 * for a caller with the token (or on a node without one), else the login
 * page. `routeOf` finds the node's routes, which the page reads.
 *
 * @example
 * ```ts ignore
 * import { getUiPage } from "./routes.ts";
 * const res = await getUiPage(ctx, req, new URL(req.url), true, (path) => NODE_ROUTER.find(path));
 * ```
 */
export async function getUiPage(
  ctx: NodeContext,
  req: Request,
  url: URL,
  authed: boolean,
  routeOf: RouteOf,
): Promise<Response> {
  if (!authed) return html(loginHtml(false));
  return await getPage(ctx, req, url, routeOf, HTML_HEADERS);
}

/**
 * Whether `req` is a browser opening the address itself (a top-level
 * navigation, which wants a page), rather than a program or a page's own
 * `fetch` (which want the API's JSON).
 *
 * @example
 * ```ts
 * import { isNavigation } from "./routes.ts";
 * isNavigation(new Request("http://127.0.0.1:8686/nope", { headers: { "sec-fetch-dest": "document" } })); // true
 * isNavigation(new Request("http://127.0.0.1:8686/nope")); // false
 * ```
 */
export function isNavigation(req: { method: string; headers: Headers }): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const dest = req.headers.get("sec-fetch-dest");
  if (dest !== null) return dest.toLowerCase() === "document";
  return /^text\/html\b/i.test(req.headers.get("accept") ?? "");
}

/**
 * An error as a page for a browser that navigated to the address (see
 * {@linkcode isNavigation}), with the error's headers (`www-authenticate`,
 * `allow`) and a link back to the front page.
 *
 * @example
 * ```ts
 * import { errorPage } from "./routes.ts";
 * errorPage(404, "not found: GET /nope").headers.get("content-type"); // "text/html; charset=utf-8"
 * ```
 */
export function errorPage(status: number, message: string, headers: Record<string, string> = {}): Response {
  return html(errorHtml(status, message), status, headers);
}

/**
 * `GET /ui/{name}`: a static file, revalidated by its `ETag` (304 when the
 * browser has it), so a new node version is picked up at once.
 *
 * @example
 * ```ts
 * import { getAsset } from "./routes.ts";
 * getAsset(new Request("http://127.0.0.1:8686/ui/app.css"), "app.css").status; // 200
 * ```
 */
export function getAsset(req: Request, name: string): Response {
  const file = ASSETS[name];
  if (!file) throw new NodeError("not-found", `not found: /ui/${name.slice(0, 200)}`);
  const headers = { ...COMMON, "cache-control": "no-cache", etag: file.etag };
  const known = req.headers.get("if-none-match")?.split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (known?.includes(file.etag) || known?.includes("*")) return new Response(null, { status: 304, headers });
  return new Response(file.body, { headers: { ...headers, "content-type": file.type } });
}

function redirectHome(cookie: string): Response {
  return new Response(null, {
    status: 303,
    headers: { ...COMMON, location: "/", "set-cookie": cookie, "cache-control": "no-store" },
  });
}

/** The node's token for a login form posted from the node's own page: 404 without a token, 403 from another page. */
function loginFormToken(ctx: NodeContext, req: Request): string {
  if (ctx.token === null) throw new NodeError("not-found", "this node has no token: there is no login");
  if (!fromOwnPage(req)) throw new NodeError("forbidden", "log in and out from the node's own page");
  return ctx.token;
}

/**
 * `POST /ui/login` with the form field `token`: the right token sets the
 * login cookie and sends the browser to `/` (303); a wrong one answers the
 * login page again with an error (401). 404 on a node without a token; 403
 * when posted from another page, even a loopback one the cross-site guard lets
 * through.
 */
export async function postLogin(ctx: NodeContext, req: Request): Promise<Response> {
  const token = loginFormToken(ctx, req);
  const form = await readJsonBody(req, LOGIN_BODY_LIMIT, (text) => new URLSearchParams(text)) as URLSearchParams;
  if (!sameSecret((form.get("token") ?? "").trim(), token)) {
    return html(loginHtml(true), 401, { "www-authenticate": 'Bearer realm="svc-node"' });
  }
  return redirectHome(loginCookie(req, token, ctx.now()));
}

/**
 * `POST /ui/logout`: clears the login cookie and sends the browser to `/`
 * (303). 404 on a node without a token, 403 from another page.
 */
export function postLogout(ctx: NodeContext, req: Request): Response {
  loginFormToken(ctx, req);
  return redirectHome(logoutCookie(req));
}

const READ = ["GET", "HEAD"];

/**
 * The interface's routes: its pages (`/`, `/p/{slug}`, each kind of a
 * project's page and any other path under it, which the page says is
 * missing; `/ui/mcp`), its static files, and the login and logout forms.
 * `routeOf` finds the node's routes, which the pages read.
 *
 * @example
 * ```ts ignore
 * import { uiRoutes } from "./routes.ts";
 * const routes = uiRoutes((path) => router.find(path));
 * ```
 */
export function uiRoutes(routeOf: RouteOf): RouteDecl[] {
  const page = (path: string, costly: boolean, label?: string): RouteDecl => ({
    path,
    label,
    methods: READ,
    public: true,
    costly,
    run: (ctx, req, url, authed) => getUiPage(ctx, req, url, authed, routeOf),
  });
  return [
    page("/", false),
    page("/ui/mcp", false),
    page("/p/{slug}", true),
    ...PROJECT_PAGES.map((kind) => page(`/p/{slug}/${kind}`, true)),
    page("/p/{slug}/{missing*}", true),
    {
      path: "/ui/{asset}",
      methods: READ,
      public: true,
      tests: { asset: isAsset },
      run: (_ctx, req, _url, _authed, p) => Promise.resolve(getAsset(req, p.asset)),
    },
    { path: "/ui/login", methods: ["POST"], public: true, form: true, run: (ctx, req) => postLogin(ctx, req) },
    {
      path: "/ui/logout",
      methods: ["POST"],
      public: true,
      form: true,
      run: (ctx, req) => Promise.resolve(postLogout(ctx, req)),
    },
  ];
}
