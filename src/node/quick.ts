/**
 * The node's quick lane: `GET /healthz` answered from the request head alone
 * (no `Request`, no `Response`), for monitors that poll it often. The same
 * guards run over the head; anything but a plain admitted health check (a
 * refusal, CORS, another path) is passed on to the handler, which answers it
 * as usual.
 *
 * @module
 */
import type { QuickAnswer, QuickHandler } from "../http/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import { admit, factsOf } from "./admission.ts";
import type { NodeContext } from "./context.ts";
import { logLine } from "./handler.ts";
import { JSON_HEADERS } from "./response.ts";
import { healthOf } from "../service/mod.ts";

const HEADERS = Object.entries(JSON_HEADERS);
const encoder = new TextEncoder();

/**
 * The quick handler of a node over `ctx`, logging as the handler does.
 */
export function createQuickHandler(ctx: NodeContext): QuickHandler {
  return async (head, info) => {
    const started = performance.now();
    // Asked of every bodiless GET: anything else is passed on before any guard's work is done twice.
    const url = new URL(head.url);
    if (url.pathname !== "/healthz" || (info.target !== undefined && !info.target.startsWith("/healthz"))) return null;
    const facts = factsOf(ctx, head, url, info.target);
    if (facts.matched === null) return null;
    if (facts.corsOrigin !== null) return null;
    let authed: boolean;
    try {
      const admitted = admit(ctx, head, facts);
      if ("preflight" in admitted) return null;
      authed = admitted.authed;
    } catch {
      return null;
    }
    const answer: QuickAnswer = {
      status: 200,
      headers: HEADERS,
      body: encoder.encode(stringifyExactJson(await healthOf(ctx, authed))),
    };
    const ms = performance.now() - started;
    ctx.log.request(logLine(head, info, 200, ms));
    ctx.metrics?.answered("/healthz", head.method, 200, ms / 1000);
    const metrics = ctx.metrics;
    if (metrics) info.sent = metrics.sender("/healthz");
    return answer;
  };
}
