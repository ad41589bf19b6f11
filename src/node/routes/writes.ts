/**
 * The write routes of a node: `POST /projects` (a local project),
 * `POST /projects/{slug}/contribute` and `GET
 * /projects/{slug}/contributions/{id}`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import {
  type ContributionView,
  isContributionId,
  LockTimeout,
  type MergeSource,
  readContribution,
} from "../../store/mod.ts";
import { type ExactJson, parseExactJson } from "../../wire/json_parse.ts";
import { checkNewProject } from "../../wire/new_project.ts";
import { stableStringify } from "../../wire/stable_json.ts";
import type { SchemaDef } from "../../wire/types.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../guards/body.ts";
import { bearerOf, sameSecret } from "../guards/token.ts";
import { HttpError, json } from "../response.ts";
import { contribute } from "../writes/contribute.ts";
import { createLocalProject } from "../writes/create_project.ts";
import { requireProject } from "./_version.ts";

/** Most records in one contribution. */
export const MAX_RECORDS = 500;
/** Most bytes of records in one contribution. */
export const MAX_BATCH_BYTES = 512 * 1024;

function refuseOnReadOnly(ctx: NodeContext): void {
  if (ctx.readOnly) throw new HttpError(405, "this node is read-only: it takes no writes");
}

/** `POST /projects`: a local project. */
export async function postProject(ctx: NodeContext, req: Request): Promise<Response> {
  refuseOnReadOnly(ctx);
  let input;
  try {
    input = checkNewProject(await readJsonBody(req));
  } catch (e) {
    if (e instanceof RangeError) throw new HttpError(400, e.message);
    throw e;
  }
  await createLocalProject(ctx, input);
  return json({ id: null, slug: input.slug, visibility: input.visibility, local: true }, 201);
}

function contributionBody(body: ExactJson): { records: ExactJson[]; sourceDeclaration: string | null } {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "body must be a JSON object");
  const { records, sourceDeclaration, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new HttpError(400, `body must NOT have additional property '${unknown[0]}'`);
  if (!Array.isArray(records) || records.length < 1 || records.length > MAX_RECORDS) {
    throw new HttpError(400, `body/records must be an array of 1-${MAX_RECORDS} records`);
  }
  const notObject = records.findIndex((r) => r === null || typeof r !== "object" || Array.isArray(r));
  if (notObject >= 0) throw new HttpError(400, `body/records/${notObject} must be a JSON object`);
  if (Buffer.byteLength(stableStringify(records)) > MAX_BATCH_BYTES) {
    throw new HttpError(413, "records are over 512 KiB: send them in smaller batches");
  }
  if (sourceDeclaration !== undefined && sourceDeclaration !== null) {
    if (typeof sourceDeclaration !== "string" || [...sourceDeclaration].length > 500) {
      throw new HttpError(400, "body/sourceDeclaration must be a string of at most 500 characters");
    }
  }
  return { records, sourceDeclaration: (sourceDeclaration as string | undefined) ?? null };
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
    throw new HttpError(400, "querystring/wait must be an integer from 0 to 20");
  }
}

/** `POST /projects/{slug}/contribute`. */
export async function postContribution(ctx: NodeContext, req: Request, slug: string): Promise<Response> {
  refuseOnReadOnly(ctx);
  checkWait(new URL(req.url));
  const meta = await ctx.store.meta(slug);
  if (!meta) await requireProject(ctx, slug);
  if (meta?.local !== true) {
    throw new HttpError(405, `project ${slug} is a copy of an origin project: copies take no writes on a node`);
  }
  const key = req.headers.get("idempotency-key");
  if (key !== null && (key.length < 1 || key.length > 200)) {
    throw new HttpError(400, "Idempotency-Key must be 1-200 characters");
  }
  const body = contributionBody(await readJsonBody(req, undefined, parseExactJson) as ExactJson);
  try {
    const outcome = await contribute(ctx, slug, meta.schemaDef as SchemaDef, {
      ...body,
      idempotencyKey: key,
      agentId: agentIdOf(ctx, req),
    });
    if (outcome.replayed) return json(outcome.view, 200, { "idempotent-replayed": "true" });
    return json(outcome.view, 201);
  } catch (e) {
    if (e instanceof LockTimeout) throw new HttpError(503, e.message, { "retry-after": "1" });
    throw e;
  }
}

/** `GET /projects/{slug}/contributions/{id}`. */
export async function getContribution(ctx: NodeContext, slug: string, id: string): Promise<Response> {
  if (!isContributionId(id)) throw new HttpError(400, "a contribution id is a UUID");
  await requireProject(ctx, slug);
  const view = await readContribution(ctx.store.root, slug, id) ?? await lastMerge(ctx, slug, id);
  if (!view) throw new HttpError(404, `contribution ${id.slice(0, 64)} is not on this node`);
  return json(view);
}

/** The answer of the merge that made the newest version, when it is `id` (its own file may not be written yet). */
async function lastMerge(ctx: NodeContext, slug: string, id: string): Promise<ContributionView | null> {
  const source = (await ctx.store.latest(slug))?.manifest.raw.source as MergeSource | undefined;
  return source?.contribution?.id === id ? source.contribution : null;
}
