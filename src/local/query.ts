/**
 * SQL over a version in a local store, through the handler of a node opened
 * on it for the call: the same engine, limits and messages as a node's
 * `POST /projects/{slug}/query`. This is the one local operation that loads
 * the node and DuckDB.
 *
 * @module
 */
import { errorForStatus } from "../client/errors.ts";
import { createNode } from "../node/mod.ts";
import type { QueryAnswer } from "../wire/types.ts";

/**
 * Runs `request.sql` over `slug` in the store at `store`. Unlike a node's
 * route, `limit` may pass 1000 here, and 0 asks for every row (still within
 * the engine's 32 MiB answer and 20 s).
 *
 * @example
 * ```ts ignore
 * const answer = await queryLocal("svc-data", "cities", { sql: "SELECT count(*) FROM records" });
 * ```
 */
export async function queryLocal(
  store: string,
  slug: string,
  request: { sql: string; version?: number; limit?: number },
): Promise<QueryAnswer> {
  const node = await createNode({
    store,
    host: "127.0.0.1",
    token: null,
    readOnly: true,
    sql: { size: 1, maxRows: Number.MAX_SAFE_INTEGER },
  });
  const limit = request.limit === 0 ? Number.MAX_SAFE_INTEGER : request.limit;
  try {
    const res = await node.handler(
      new Request(`http://127.0.0.1:8686/projects/${encodeURIComponent(slug)}/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...request, limit }),
      }),
    );
    const body = await res.json();
    if (!res.ok) throw errorForStatus(res.status, body.error ?? `query failed with status ${res.status}`, body);
    return body;
  } finally {
    await node.close();
  }
}
