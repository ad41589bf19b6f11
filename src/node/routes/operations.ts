/**
 * What operators' tools ask of a node: `GET /readyz` (see `readinessOf`) for
 * balancers and Kubernetes, and `GET /metrics` (see `metricsText`) for
 * Prometheus.
 *
 * @module
 */
import { NodeError } from "../../errors/mod.ts";
import { EXPOSITION_TYPE } from "../../metrics/mod.ts";
import { metricsText, readinessOf } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";

/** `GET /readyz`: 200 when ready, else 503 with the reason; `full` (token holders) adds it per project. */
export function getReady(ctx: NodeContext, full: boolean): Promise<Response> {
  const readiness = readinessOf(ctx, full);
  return Promise.resolve(json(readiness, readiness.ready ? 200 : 503, { "cache-control": "no-store" }));
}

/** `GET /metrics`: the Prometheus text format; not found when metrics are off (`--no-metrics`). */
export async function getMetrics(ctx: NodeContext): Promise<Response> {
  if (ctx.metrics === null) throw new NodeError("not-found", "metrics are off on this node (--no-metrics)");
  const text = await metricsText(ctx, ctx.metrics);
  return new Response(text, { headers: { "content-type": EXPOSITION_TYPE, "cache-control": "no-store" } });
}
