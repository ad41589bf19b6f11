/**
 * The write routes of a node: `POST /projects` (a local project) and
 * `POST /projects/{slug}/contribute`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { contributeRecords, createProject, refuseOnReadOnly } from "../../service/mod.ts";
import { type ExactJson, parseExactJson } from "../../wire/mod.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../../http/mod.ts";
import { bearerOf, sameSecret } from "../guards/token.ts";
import { json } from "../response.ts";
import { NodeError } from "../../errors/mod.ts";

/** `POST /projects`: a local project. */
export async function postProject(ctx: NodeContext, req: Request): Promise<Response> {
  refuseOnReadOnly(ctx);
  return json(await createProject(ctx, await readJsonBody(req)), 201);
}

/**
 * Who sends a contribution, as far as a node can tell without accounts: the
 * node token (`node-token`), another bearer key (`key-` and 16 hex digits
 * of its SHA-256, never the key), or no key (`anonymous`).
 */
function agentIdOf(ctx: NodeContext, req: Request): string {
  const bearer = bearerOf(req);
  if (bearer === null) return "anonymous";
  if (ctx.token !== null && sameSecret(bearer, ctx.token)) return "node-token";
  return `key-${createHash("sha256").update(bearer).digest("hex").slice(0, 16)}`;
}

/**
 * `?wait=` as the origin takes it (0-20 seconds to wait for screening); a
 * node merges inside the request, so the value only has to be valid.
 */
function checkWait(url: URL): void {
  const wait = url.searchParams.get("wait");
  if (wait !== null && !/^(?:[0-9]|1[0-9]|20)$/.test(wait)) {
    throw new NodeError("bad-request", "querystring/wait must be an integer from 0 to 20");
  }
}

/** `POST /projects/{slug}/contribute`. */
export async function postContribution(ctx: NodeContext, req: Request, slug: string): Promise<Response> {
  refuseOnReadOnly(ctx);
  checkWait(new URL(req.url));
  const readBody = async () => await readJsonBody(req, undefined, parseExactJson) as ExactJson;
  const sender = { idempotencyKey: req.headers.get("idempotency-key"), agentId: agentIdOf(ctx, req) };
  const outcome = await contributeRecords(ctx, slug, readBody, sender);
  if (outcome.replayed) return json(outcome.view, 200, { "idempotent-replayed": "true" });
  return json(outcome.view, 201);
}
