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
import { errorResponse, json } from "./response.ts";
import { sharingErrorCode } from "../sharing/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { routeTemplate } from "./router.ts";

/** Connection facts the runtime adapter knows and the handler logs. */
export interface ConnInfo {
  /** The client's address. */
  remoteAddr?: string;
  /** The request target as sent, which the node routes on (see `routedPath`). */
  target?: string;
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
  const { route, authed } = admitted;
  const url = facts.url;
  if (route.methods.length === 0) return await route.run(ctx, req, url, authed);
  if (!route.methods.includes(req.method)) {
    const allow = route.methods.join(", ");
    throw new NodeError(
      "method-not-allowed",
      `method ${req.method} is not allowed on ${url.pathname}`,
      allow ? { allow } : {},
    );
  }
  checkBodyHeaders(req, MAX_BODY_BYTES, route.form ? FORM_TYPE : "application/json");
  return await route.run(ctx, req, url, authed);
}

/**
 * The handler of a node over `ctx`, logging one line per request to the
 * node's log.
 */
export function createHandler(ctx: NodeContext): Handler {
  const answered = createAnswerer(ctx);
  const metrics = ctx.metrics;
  if (metrics === null) return answered;
  return async (req, info) => {
    const started = performance.now();
    metrics.inFlight++;
    let facts: Facts | null = null;
    let res: Response;
    try {
      res = await answered(req, info, (f) => facts = f);
    } finally {
      metrics.inFlight--;
    }
    const seen = facts as Facts | null;
    const route = seen?.route ? routeTemplate(seen.path) : "unmatched";
    metrics.answered(route, req.method, res.status, (performance.now() - started) / 1000);
    return countedBody(res, (bytes) => metrics.sent(route, bytes));
  };
}

/** `res` with the bytes of its body counted as they are sent (its declared length when it has one). */
function countedBody(res: Response, sent: (bytes: number) => void): Response {
  if (res.body === null) return res;
  const length = res.headers.get("content-length");
  if (length !== null && /^\d+$/.test(length)) {
    sent(Number(length));
    return res;
  }
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      sent(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(counting), res);
}

/** The handler without metrics; `seen` learns the request's facts once the guards established them. */
function createAnswerer(
  ctx: NodeContext,
): (req: Request, info?: ConnInfo, seen?: (facts: Facts) => void) => Promise<Response> {
  return async (req, info, seen) => {
    const started = performance.now();
    let res: Response;
    let facts: Facts | null = null;
    try {
      facts = factsOf(ctx, req, undefined, info?.target);
      seen?.(facts);
      res = await answer(ctx, req, facts);
    } catch (e) {
      const path = pathOf(req, info?.target);
      const failure = failureOf(e, `${req.method} ${path}`, ctx.log);
      // A browser that opened the address itself gets a page with a way back; programs get the JSON, in Delta
      // Sharing's shape under /delta-sharing.
      if (path === "/delta-sharing" || path.startsWith("/delta-sharing/")) {
        const body = { errorCode: sharingErrorCode(e, failure.status), message: failure.message };
        res = json(body, failure.status, failure.headers);
      } else {
        res = isNavigation(req)
          ? errorPage(failure.status, failure.message, failure.headers)
          : errorResponse(failure.status, failure.message, failure.headers);
      }
    }
    if (facts?.corsOrigin) res = allowOrigin(res, facts.corsOrigin);
    if (req.method === "HEAD" && res.body) {
      await res.body.cancel();
      res = new Response(null, { status: res.status, headers: res.headers });
    }
    ctx.log.request(logLine(req, info, res.status, performance.now() - started));
    return res;
  };
}
