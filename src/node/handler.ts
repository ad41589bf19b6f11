/**
 * The node's request handler: guards first (Host, cross-site and CORS, token, body;
 * see `admission.ts`), then the route, then one log line. Speaks only
 * Web-standard `Request` and `Response`, so every runtime adapter serves the
 * same function.
 *
 * @module
 */
import { admit, type Facts, factsOf, routedPath } from "./admission.ts";
import type { NodeContext } from "./context.ts";
import { checkBodyHeaders, FORM_TYPE, MAX_BODY_BYTES } from "../http/mod.ts";
import { allowOrigin } from "./guards/cors.ts";
import { failureOf } from "../service/mod.ts";
import { errorPage, isNavigation } from "./ui/routes.ts";
import { errorResponse } from "./response.ts";
import { NodeError } from "../errors/mod.ts";
import { NODE_ROUTER } from "./routes/table.ts";

/** Connection facts the runtime adapter knows and the handler logs. */
export interface ConnInfo {
  /** The client's address. */
  remoteAddr?: string;
  /** The request target as sent, which the node routes on (see `routedPath`). */
  target?: string;
  /** Set by the handler (when it keeps metrics) to learn the bytes the answer took once the server wrote it. */
  sent?: (bytes: number) => void;
}

/** A request handler in Web-standard terms. */
export type Handler = (req: Request, info?: ConnInfo) => Promise<Response>;

/** The request's path as sent, else its URL's, or "?" when its URL cannot be parsed (a malformed Host). */
function pathOf(req: { url: string }, target?: string): string {
  try {
    return routedPath(new URL(req.url), target);
  } catch {
    return "?";
  }
}

/**
 * The request log's line for one answer.
 *
 * @example
 * ```ts
 * import { logLine } from "./handler.ts";
 * logLine({ method: "GET", url: "http://127.0.0.1:8686/healthz" }, { remoteAddr: "127.0.0.1" }, 200, 0.4);
 * ```
 */
export function logLine(
  req: { method: string; url: string },
  info: ConnInfo | undefined,
  status: number,
  ms: number,
): string {
  const path = pathOf(req, info?.target);
  return `${new Date().toISOString()} ${info?.remoteAddr ?? "-"} ${req.method} ${path} ${status} ${ms.toFixed(1)}ms`;
}

async function answer(ctx: NodeContext, req: Request, facts: Facts): Promise<Response> {
  const admitted = admit(ctx, req, facts);
  if ("preflight" in admitted) return admitted.preflight;
  const { matched: { route, params }, authed } = admitted;
  const url = facts.url;
  if (route.methods.length === 0) return await route.run(ctx, req, url, authed, params);
  if (!route.methods.includes(req.method)) {
    const allow = route.methods.join(", ");
    throw new NodeError(
      "method-not-allowed",
      `method ${req.method} is not allowed on ${url.pathname}`,
      allow ? { allow } : {},
    );
  }
  checkBodyHeaders(req, MAX_BODY_BYTES, route.form ? FORM_TYPE : "application/json");
  if (route.costly) await ctx.memoryGate.admit(req.signal);
  return await route.run(ctx, req, url, authed, params);
}

/**
 * The handler of a node over `ctx`, logging one line per request to the
 * node's log and counting it in the node's metrics.
 */
export function createHandler(ctx: NodeContext): Handler {
  const metrics = ctx.metrics;
  return async (req, info) => {
    const started = performance.now();
    let res: Response;
    let facts: Facts | null = null;
    if (metrics) metrics.inFlight++;
    ctx.activity.inFlight++;
    try {
      facts = factsOf(ctx, req, undefined, info?.target);
      res = await answer(ctx, req, facts);
    } catch (e) {
      res = failureAnswer(ctx, req, info, e);
    } finally {
      if (metrics) metrics.inFlight--;
      ctx.activity.inFlight--;
      ctx.activity.lastEnded = ctx.now();
    }
    if (facts?.corsOrigin) res = allowOrigin(res, facts.corsOrigin);
    if (req.method === "HEAD" && res.body) {
      await res.body.cancel();
      res = new Response(null, { status: res.status, headers: res.headers });
    }
    const ms = performance.now() - started;
    if (ctx.log.requests) ctx.log.request(logLine(req, info, res.status, ms));
    if (metrics) {
      const route = facts?.matched?.route.template ?? "unmatched";
      metrics.answered(route, req.method, res.status, ms / 1000);
      if (info) info.sent = metrics.sender(route);
    }
    return res;
  };
}

/**
 * The answer to a request that failed with `e`: a browser that opened the
 * address itself gets a page with a way back; programs get the JSON, in
 * the shape of the table mounted where the path is (Delta Sharing's under
 * /delta-sharing).
 */
function failureAnswer(ctx: NodeContext, req: Request, info: ConnInfo | undefined, e: unknown): Response {
  const path = pathOf(req, info?.target);
  const failure = failureOf(e, `${req.method} ${path}`, ctx.log);
  const mount = NODE_ROUTER.mountOf(path);
  if (mount !== null) return mount.encodeError(e, failure.status, failure.message, failure.headers);
  return isNavigation(req)
    ? errorPage(failure.status, failure.message, failure.headers)
    : errorResponse(failure.status, failure.message, failure.headers);
}
