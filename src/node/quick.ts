/**
 * The node's quick lane: `GET /healthz` and `GET /readyz` answered from the
 * request head alone (no `Request`, no `Response`), for monitors and
 * balancers that poll them often. The same guards run over the head; anything
 * but a plain admitted health or readiness check (a refusal, CORS, another
 * path) is passed on to the handler, which answers it as usual.
 *
 * @module
 */
import type { QuickAnswer, QuickHandler } from "../http/mod.ts";
import { stringifyExactJson } from "../wire/mod.ts";
import { admit, factsOf } from "./admission.ts";
import type { NodeContext } from "./context.ts";
import { logLine } from "./handler.ts";
import { JSON_HEADERS } from "./response.ts";
import { healthOf, readinessOf } from "../service/mod.ts";

const HEADERS = Object.entries(JSON_HEADERS);
const encoder = new TextEncoder();

/**
 * The bytes of each text, the last ones made for a path again when its text is the same: a monitor polling at full
 * speed is mostly sent the same (the writer copies the bytes, so they are never changed).
 */
function lastBytes(): (path: string, text: string) => Uint8Array {
  const last = new Map<string, { text: string; bytes: Uint8Array }>();
  return (path, text) => {
    const kept = last.get(path);
    if (kept?.text === text) return kept.bytes;
    const bytes = encoder.encode(text);
    last.set(path, { text, bytes });
    return bytes;
  };
}

/**
 * The quick handler of a node over `ctx`, logging as the handler does.
 */
export function createQuickHandler(ctx: NodeContext): QuickHandler {
  const bytesOf = lastBytes();
  return async (head, info) => {
    const started = performance.now();
    // Asked of every bodiless GET: anything else is passed on before any guard's work is done twice.
    const url = new URL(head.url);
    const path = url.pathname;
    if ((path !== "/healthz" && path !== "/readyz") || (info.target !== undefined && !info.target.startsWith(path))) {
      return null;
    }
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
    const ready = path === "/readyz" ? readinessOf(ctx, authed) : null;
    const status = ready === null || ready.ready ? 200 : 503;
    const body = ready ?? await healthOf(ctx, authed);
    const answer: QuickAnswer = { status, headers: HEADERS, body: bytesOf(path, stringifyExactJson(body)) };
    const ms = performance.now() - started;
    if (ctx.log.requests) ctx.log.request(logLine(head, info, status, ms));
    ctx.metrics?.answered(path, head.method, status, ms / 1000);
    const metrics = ctx.metrics;
    if (metrics) info.sent = metrics.sender(path);
    return answer;
  };
}
