/**
 * `POST /projects/{slug}/query`: one read statement over one version, as the
 * table `records`, on the SQL worker pool.
 *
 * @module
 */
import { DEFAULT_ROWS, MAX_SQL_CHARS, SqlError, sqlSource } from "../../sql/mod.ts";
import { withLease } from "../../store/mod.ts";
import type { NodeContext } from "../context.ts";
import { readJsonBody } from "../guards/body.ts";
import { HttpError, jsonText } from "../response.ts";
import { requireVersion } from "./_version.ts";

function bodyInt(body: Record<string, unknown>, name: string, min: number, max?: number): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new HttpError(400, `body/${name} must be integer`);
  }
  if (value < min || (max !== undefined && value > max)) {
    throw new HttpError(400, `body/${name} must be ${max === undefined ? `>= ${min}` : `>= ${min} and <= ${max}`}`);
  }
  return value;
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `POST /projects/{slug}/query` with `{"sql", "version"?, "limit"?}`. */
export async function postQuery(ctx: NodeContext, req: Request, slug: string): Promise<Response> {
  const body = await readJsonBody(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "body must be a JSON object");
  const fields = body as Record<string, unknown>;
  const sql = fields.sql;
  // Characters are code points: an emoji is one character, not two UTF-16 units.
  if (typeof sql !== "string" || sql.trim().length === 0 || codePoints(sql) > MAX_SQL_CHARS) {
    throw new HttpError(400, `body/sql must be a statement of 1-${MAX_SQL_CHARS} characters`);
  }
  const limit = bodyInt(fields, "limit", 1, ctx.sql.maxRows) ?? DEFAULT_ROWS;
  const version = await requireVersion(ctx, slug, bodyInt(fields, "version", 1));
  try {
    const source = await sqlSource(ctx.realRoot, version);
    const answer = await withLease(version.parts.map((p) => p.path), () => ctx.sql.query(source, sql, limit));
    const scannedBytes = version.parts.reduce((sum, p) => sum + p.bytes, 0);
    const head = `{"project":${JSON.stringify(slug)},"version":${version.version},` +
      `"columns":${JSON.stringify(answer.columns)},"types":${JSON.stringify(answer.types)}`;
    return jsonText(
      `${head},"rows":${answer.rows},"count":${answer.count},"truncated":${answer.truncated},` +
        `"ms":${answer.ms},"scannedBytes":${scannedBytes}}`,
    );
  } catch (e) {
    if (e instanceof SqlError) throw new HttpError(e.status, e.message, e.headers);
    throw e;
  }
}
