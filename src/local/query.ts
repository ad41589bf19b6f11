/**
 * SQL over a version in a local store, with the service a node's `POST
 * /projects/{slug}/query` runs: the same engine, limits and messages, on a
 * store and one SQL worker opened for the call (no node, no HTTP).
 *
 * @module
 */
import { realpath } from "node:fs/promises";
import { errorForStatus } from "../client/mod.ts";
import { NodeError } from "../errors/mod.ts";
import { queryVersion } from "../service/mod.ts";
import { createSqlPool } from "../sql/mod.ts";
import { openStore } from "../store/mod.ts";
import type { QueryAnswer } from "../wire/mod.ts";

/**
 * Runs `request.sql` over `slug` in the store at `store`. Unlike a node's
 * route, `limit` may pass 1000 here, and 0 asks for every row (still within
 * the engine's 32 MiB answer and 20 s).
 */
export async function queryLocal(
  store: string,
  slug: string,
  request: { sql: string; version?: number; limit?: number },
): Promise<QueryAnswer> {
  const realRoot = await realpath(store);
  const sql = createSqlPool({ storeRoot: realRoot, size: 1, maxRows: Number.MAX_SAFE_INTEGER });
  const limit = request.limit === 0 ? Number.MAX_SAFE_INTEGER : request.limit ?? null;
  try {
    const state = { store: openStore(store), sql, storeRealPath: realRoot };
    return JSON.parse(await queryVersion(state, slug, { sql: request.sql, version: request.version ?? null, limit }));
  } catch (e) {
    if (e instanceof NodeError) throw errorForStatus(e.status, e.message, { error: e.message });
    throw e;
  } finally {
    await sql.close();
  }
}
