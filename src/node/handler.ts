/**
 * The node's request handler: guards first (Host, cross-site, token, body),
 * then the route, then one log line. Speaks only Web-standard `Request` and
 * `Response`, so every runtime adapter serves the same function.
 *
 * @module
 */
import type { NodeContext } from "./context.ts";
import { checkBodyHeaders } from "./guards/body.ts";
import { isCrossSite } from "./guards/cross_site.ts";
import { hostAllowed } from "./guards/host.ts";
import { hasToken } from "./guards/token.ts";
import { errorResponse, HttpError } from "./response.ts";
import { match } from "./router.ts";

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

async function answer(ctx: NodeContext, req: Request): Promise<Response> {
  if (!hostAllowed(req.headers.get("host"), ctx.bindHost, ctx.allowedHosts)) {
    throw new HttpError(403, "this node answers only to its own address: the Host header names another");
  }
  const authed = ctx.token === null || hasToken(req, ctx.token);
  const withToken = ctx.token !== null && authed;
  if (!withToken && isCrossSite(req)) {
    throw new HttpError(403, "cross-site requests are refused: a web page of another origin needs the node token");
  }
  const url = new URL(req.url);
  const route = match(url.pathname);
  if (!route) throw new HttpError(404, `not found: ${req.method} ${url.pathname.slice(0, 200)}`);
  if (!authed && !route.public) throw new HttpError(401, UNAUTHORIZED, { "www-authenticate": "Bearer" });
  if (route.methods.length === 0) return await route.run(ctx, req, url, authed);
  if (!route.methods.includes(req.method)) {
    const allow = route.methods.join(", ");
    throw new HttpError(405, `method ${req.method} is not allowed on ${url.pathname}`, allow ? { allow } : {});
  }
  checkBodyHeaders(req);
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
    try {
      res = await answer(ctx, req);
    } catch (e) {
      if (e instanceof HttpError) {
        res = errorResponse(e.status, e.message, e.headers);
      } else {
        console.error(`error: ${req.method} ${pathOf(req)}:`, e);
        res = errorResponse(500, "internal error: the node's log has the details");
      }
    }
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
