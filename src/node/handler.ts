/**
 * The node's request handler: guards first (Host, cross-site and CORS, token, body),
 * then the route, then one log line. Speaks only Web-standard `Request` and
 * `Response`, so every runtime adapter serves the same function.
 *
 * The browser interface's login cookie stands for the token only on requests
 * from the node's own pages, and never in place of the bearer token for what
 * the token alone earns: any Host, passing the cross-site guard, CORS.
 *
 * @module
 */
import type { NodeContext } from "./context.ts";
import { checkBodyHeaders, FORM_TYPE, MAX_BODY_BYTES } from "./guards/body.ts";
import { allowOrigin, preflight } from "./guards/cors.ts";
import { fromOwnPage, isCrossSite, opensFrontPage, originTrusted } from "./guards/cross_site.ts";
import { hostAllowed, isLoopback } from "./guards/host.ts";
import { hasToken } from "./guards/token.ts";
import { hasSessionCookie } from "./guards/token_cookie.ts";
import { DISK_FULL_MESSAGE, isDiskFull } from "../store/disk_full.ts";
import { errorResponse, HttpError } from "./response.ts";
import { type Match, match } from "./router.ts";

/** Connection facts the runtime adapter knows and the handler logs. */
export interface ConnInfo {
  /** The client's address. */
  remoteAddr?: string;
}

/** A request handler in Web-standard terms. */
export type Handler = (req: Request, info?: ConnInfo) => Promise<Response>;

/** Where log lines go; null for none (`--quiet`). */
export type LogSink = ((line: string) => void) | null;

/** The request's path, or "?" when its URL cannot be parsed (a malformed Host). */
function pathOf(req: Request): string {
  try {
    return new URL(req.url).pathname;
  } catch {
    return "?";
  }
}

const UNAUTHORIZED = "this node needs its token: Authorization: Bearer <token>";
const CHALLENGE = { "www-authenticate": 'Bearer realm="svc-node"' };

/** What the guards establish about a request once. */
interface Facts {
  url: URL;
  route: Match | null;
  /** The request carries the node's token (`Authorization: Bearer`). */
  withToken: boolean;
  /** The request carries a valid login cookie and comes from the node's own pages. */
  withCookie: boolean;
  /** The node is bound to loopback (its pages are trusted). */
  loopbackNode: boolean;
  /** The origin a browser may read the answer for, if any. */
  corsOrigin: string | null;
}

function facts(ctx: NodeContext, req: Request): Facts {
  const url = new URL(req.url);
  const withToken = ctx.token !== null && hasToken(req, ctx.token);
  const withCookie = ctx.token !== null && !withToken && fromOwnPage(req) &&
    hasSessionCookie(req, url, ctx.token, ctx.now());
  const origin = req.headers.get("origin");
  const loopbackNode = isLoopback(ctx.address.host);
  const trusted = origin !== null && (withToken || originTrusted(origin, url, loopbackNode));
  return { url, route: match(url.pathname), withToken, withCookie, loopbackNode, corsOrigin: trusted ? origin : null };
}

async function answer(ctx: NodeContext, req: Request, known: Facts): Promise<Response> {
  const { url, route, withToken, withCookie, loopbackNode } = known;
  // The token (or a signed part URL, which only a token holder could mint) vouches for any authority:
  // a node reached by a DNS name or behind a proxy.
  if (!withToken && !hostAllowed(url, ctx.address) && !(route?.signed?.(ctx, url) ?? false)) {
    throw new HttpError(403, "this node answers only to its own address: the Host header names another");
  }
  const origin = req.headers.get("origin");
  if (req.method === "OPTIONS" && origin !== null && req.headers.has("access-control-request-method")) {
    if (ctx.token !== null || originTrusted(origin, url, loopbackNode)) return preflight(origin);
  }
  if (!withToken && isCrossSite(req, loopbackNode) && !opensFrontPage(req)) {
    throw new HttpError(403, "cross-site requests are refused: a web page of another origin needs the node token");
  }
  if (!route) throw new HttpError(404, `not found: ${req.method} ${url.pathname.slice(0, 200)}`);
  const authed = ctx.token === null || withToken || withCookie;
  if (!authed && !route.public) throw new HttpError(401, UNAUTHORIZED, CHALLENGE);
  if (route.methods.length === 0) return await route.run(ctx, req, url, authed);
  if (!route.methods.includes(req.method)) {
    const allow = route.methods.join(", ");
    throw new HttpError(405, `method ${req.method} is not allowed on ${url.pathname}`, allow ? { allow } : {});
  }
  checkBodyHeaders(req, MAX_BODY_BYTES, route.form ? FORM_TYPE : "application/json");
  return await route.run(ctx, req, url, authed);
}

/**
 * The handler of a node over `ctx`, logging one line per request to `log`.
 *
 * @example
 * ```ts ignore
 * const handler = createHandler(ctx, console.error);
 * const res = await handler(new Request("http://127.0.0.1:8686/healthz"));
 * ```
 */
export function createHandler(ctx: NodeContext, log: LogSink): Handler {
  return async (req, info) => {
    const started = performance.now();
    let res: Response;
    let known: Facts | null = null;
    try {
      known = facts(ctx, req);
      res = await answer(ctx, req, known);
    } catch (e) {
      if (e instanceof HttpError) {
        res = errorResponse(e.status, e.message, e.headers);
      } else if (isDiskFull(e)) {
        console.error(`error: ${req.method} ${pathOf(req)}: disk full: ${(e as Error).message}`);
        res = errorResponse(507, DISK_FULL_MESSAGE);
      } else {
        console.error(`error: ${req.method} ${pathOf(req)}:`, e);
        res = errorResponse(500, "internal error: the node's log has the details");
      }
    }
    if (known?.corsOrigin) res = allowOrigin(res, known.corsOrigin);
    if (req.method === "HEAD" && res.body) {
      await res.body.cancel();
      res = new Response(null, { status: res.status, headers: res.headers });
    }
    if (log) {
      const ms = (performance.now() - started).toFixed(1);
      log(`${new Date().toISOString()} ${info?.remoteAddr ?? "-"} ${req.method} ${pathOf(req)} ${res.status} ${ms}ms`);
    }
    return res;
  };
}
