/**
 * `GET /healthz` (see `healthOf`): everything for a caller with the token,
 * `{"ok": true}` alone for the others.
 *
 * @module
 */
import { healthOf } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { json } from "../response.ts";

/** `GET /healthz`; `full` is false for callers without the token. */
export async function getHealth(ctx: NodeContext, full: boolean): Promise<Response> {
  return json(await healthOf(ctx, full));
}
