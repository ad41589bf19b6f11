/**
 * The node's guards in front of every route, over a request's head (a
 * `Request`, or the head the HTTP server's quick lane shows): the Host
 * guard, CORS preflight, the cross-site guard, the route and the token.
 *
 * The browser interface's login cookie stands for the token only on requests
 * from the node's own pages, and never in place of the bearer token for what
 * the token alone earns: passing the cross-site guard, CORS.
 *
 * @module
 */
import type { RequestHeadView } from "../http/mod.ts";
import type { NodeContext } from "./context.ts";
import { preflight } from "./guards/cors.ts";
import { fromNodePage, isCrossSite, opensFrontPage, originTrusted } from "./guards/cross_site.ts";
import { hostAllowed } from "./guards/host.ts";
import { hasToken } from "./guards/token.ts";
import { hasSessionCookie } from "./guards/token_cookie.ts";

import { NodeError } from "../errors/mod.ts";
import type { Matched } from "./router.ts";
import { NODE_ROUTER } from "./routes/table.ts";

/** What the guards establish about a request once. */
export interface Facts {
  /** The request's URL. */
  url: URL;
  /** The path as the client sent it, which routes are matched on (see {@linkcode routedPath}). */
  path: string;
  /** Its route and parameters, or null when the node serves no such path. */
  matched: Matched | null;
  /** The request carries the node's token (`Authorization: Bearer`). */
  withToken: boolean;
  /** The request carries a valid login cookie and comes from the node's own pages. */
  withCookie: boolean;
  /** The node is bound to loopback (its pages are trusted). */
  loopbackNode: boolean;
  /** The origin a browser may read the answer for, if any. */
  corsOrigin: string | null;
}

/** What a request may do once admitted: `authed` when it may see more than public routes show. */
export type Admission = { preflight: Response } | { matched: Matched; authed: boolean };

const UNAUTHORIZED = "this node needs its token: Authorization: Bearer <token>";
const CHALLENGE = { "www-authenticate": 'Bearer realm="svc-node"' };

/**
 * The path a request is routed on: its target's path as the client sent it
 * when the server passes it on (a `Request`'s URL has dot segments resolved
 * and backslashes turned into slashes, so `/projects/x/../y/data` or
 * `/projects\\y\\data` would reach a route under another name), else the
 * URL's path.
 *
 * @example
 * ```ts
 * import { routedPath } from "./admission.ts";
 * routedPath(new URL("http://127.0.0.1/projects/y/data"), "/projects/x/../y/data?limit=1"); // "/projects/x/../y/data"
 * ```
 */
export function routedPath(url: URL, target: string | undefined): string {
  if (target === undefined || target === "*" || !target.startsWith("/")) return url.pathname;
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/**
 * The facts of `req`, whose URL is `url` (throws when it cannot be parsed)
 * and whose target as sent is `target` when the server knows it.
 */
export function factsOf(
  ctx: NodeContext,
  req: RequestHeadView,
  url: URL = new URL(req.url),
  target?: string,
): Facts {
  const withToken = ctx.token !== null && hasToken(req, ctx.token);
  const withCookie = ctx.token !== null && !withToken && fromNodePage(req, url) &&
    hasSessionCookie(req, url, ctx.token, ctx.now());
  const origin = req.headers.get("origin");
  const loopbackNode = ctx.loopbackNode;
  const trusted = origin !== null && (withToken || originTrusted(origin, url, loopbackNode));
  const path = routedPath(url, target);
  const matched = NODE_ROUTER.find(path);
  return { url, path, matched, withToken, withCookie, loopbackNode, corsOrigin: trusted ? origin : null };
}

/**
 * Runs the guards over `req`: its route and whether it is authed, or the
 * preflight answer; throws {@linkcode NodeError} with the refusal.
 */
export function admit(ctx: NodeContext, req: RequestHeadView, facts: Facts): Admission {
  const { url, path, matched, withToken, withCookie, loopbackNode } = facts;
  // DNS rebinding matters only to a node without a token: with one, a request without it gets only what is public
  // (401 otherwise), whatever authority it names, so the node works through proxies and remapped ports.
  const signed = matched?.route.signed?.(ctx, url, matched.params) ?? false;
  if (ctx.token === null && !hostAllowed(url, ctx.address) && !signed) {
    throw new NodeError("forbidden", "this node answers only to its own address: the Host header names another");
  }
  const origin = req.headers.get("origin");
  if (req.method === "OPTIONS" && origin !== null && req.headers.has("access-control-request-method")) {
    if (ctx.token !== null || originTrusted(origin, url, loopbackNode)) return { preflight: preflight(origin) };
  }
  if (!withToken && isCrossSite(req, loopbackNode, url) && !opensFrontPage(req)) {
    throw new NodeError(
      "forbidden",
      "cross-site requests are refused: a web page of another origin needs the node token",
    );
  }
  if (!matched) throw new NodeError("not-found", `not found: ${req.method} ${path.slice(0, 200)}`);
  const authed = ctx.token === null || withToken || withCookie;
  if (!authed && !matched.route.public) throw new NodeError("unauthorized", UNAUTHORIZED, CHALLENGE);
  return { matched, authed };
}
