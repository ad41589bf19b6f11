/**
 * `POST /projects/{slug}/query`: one read statement over one version (see
 * `queryVersion`).
 *
 * @module
 */
import { NodeError } from "../../errors/mod.ts";
import { checkStatement, queryVersion } from "../../service/mod.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../../http/mod.ts";
import { jsonText } from "../response.ts";
import { downloadFormat, postQueryDownload } from "./download.ts";

function bodyInt(body: Record<string, unknown>, name: string, min: number, max?: number): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new NodeError("bad-request", `body/${name} must be integer`);
  }
  if (value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `>= ${min} and <= ${max}`;
    throw new NodeError("bad-request", `body/${name} must be ${range}`);
  }
  return value;
}

/** `POST /projects/{slug}/query` with `{"sql", "version"?, "limit"?}`. */
export async function postQuery(ctx: NodeContext, req: Request, slug: string): Promise<Response> {
  const body = await readJsonBody(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new NodeError("bad-request", "body must be a JSON object");
  }
  const fields = body as Record<string, unknown>;
  const sql = checkStatement(fields.sql);
  const limit = bodyInt(fields, "limit", 1, ctx.sql.maxRows);
  const version = bodyInt(fields, "version", 1);
  const format = downloadFormat(req, new URL(req.url));
  if (format) return await postQueryDownload(ctx, req, slug, { sql, version, limit }, format);
  return jsonText(await queryVersion(ctx, slug, { sql, version, limit }));
}
