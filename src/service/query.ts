/**
 * One read statement over one version, as the table `records`, on the SQL
 * worker pool: `POST /projects/{slug}/query`, MCP's `query_dataset` and
 * `svc query` on a local store all run it here.
 *
 * @module
 */
import { NodeError } from "../errors/mod.ts";
import { DEFAULT_ROWS, MAX_SQL_CHARS, sqlSource } from "../sql/mod.ts";
import type { NodeState } from "./state.ts";
import type { SqlOutcome } from "./metrics.ts";
import { withVersion } from "./versions.ts";

/** A query. */
export interface QueryRequest {
  /** One read statement, 1-4000 characters (code points). */
  sql: string;
  /** The version; the newest whole one when null. */
  version: number | null;
  /** Rows to return (default 200, at most the pool's `maxRows`). */
  limit: number | null;
}

/** What running a query needs of the node. */
export type QueryState = Pick<NodeState, "store" | "sql" | "storeRealPath"> & Partial<Pick<NodeState, "metrics">>;

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Checks a statement: 1-4000 characters, counted as code points (an emoji
 * is one character, not two UTF-16 units); bad-request otherwise.
 *
 * @example
 * ```ts
 * import { checkStatement } from "./query.ts";
 * checkStatement("SELECT 1"); // "SELECT 1"
 * ```
 */
export function checkStatement(sql: unknown): string {
  if (typeof sql !== "string" || sql.trim().length === 0 || codePoints(sql) > MAX_SQL_CHARS) {
    throw new NodeError("bad-request", `body/sql must be a statement of 1-${MAX_SQL_CHARS} characters`);
  }
  return sql;
}

/** How a query that threw ended, for the metrics. */
function outcomeOf(e: unknown): SqlOutcome {
  if (!(e instanceof NodeError)) return "error";
  return e.kind === "busy" ? "refused" : e.kind === "timeout" ? "timeout" : "error";
}

/** Runs `query`, counting its outcome and time when the node keeps metrics. */
async function counted<T>(state: QueryState, query: () => Promise<T>): Promise<T> {
  const metrics = state.metrics ?? null;
  if (metrics === null) return await query();
  const started = performance.now();
  try {
    const answer = await query();
    metrics.query("ok", (performance.now() - started) / 1000);
    return answer;
  } catch (e) {
    metrics.query(outcomeOf(e), (performance.now() - started) / 1000);
    throw e;
  }
}

/**
 * Runs `request` over `slug`: the answer's JSON text (`{project, version,
 * columns, types, rows, count, truncated, ms, scannedBytes}`, the rows as
 * the worker wrote them, so integers keep every digit).
 */
export async function queryVersion(state: QueryState, slug: string, request: QueryRequest): Promise<string> {
  const sql = checkStatement(request.sql);
  const limit = request.limit ?? DEFAULT_ROWS;
  if (limit < 1 || limit > state.sql.maxRows) {
    throw new NodeError("bad-request", `body/limit must be >= 1 and <= ${state.sql.maxRows}`);
  }
  return await withVersion(state, slug, request.version, async (version) => {
    const source = await sqlSource(state.storeRealPath, version);
    const answer = await counted(state, () => state.sql.query(source, sql, limit));
    const scannedBytes = version.parts.reduce((sum, p) => sum + p.bytes, 0);
    const head = `{"project":${JSON.stringify(slug)},"version":${version.version},` +
      `"columns":${JSON.stringify(answer.columns)},"types":${JSON.stringify(answer.types)}`;
    return `${head},"rows":${answer.rows},"count":${answer.count},"truncated":${answer.truncated},` +
      `"ms":${answer.ms},"scannedBytes":${scannedBytes}}`;
  });
}
