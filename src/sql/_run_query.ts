/**
 * One user statement on a sandbox: checked to be a single read, run as a
 * stream, and turned into JSON rows until the limit (one more row is read to
 * know whether the answer is truncated).
 *
 * @module
 */
import { type DuckDBConnection, type DuckDBPreparedStatement, StatementType } from "@duckdb/node-api";
import { columnWriter } from "../parquet/mod.ts";
import { MAX_ANSWER_BYTES, READ_ONLY_MESSAGE } from "./limits.ts";
import type { Scrubber } from "./scrub.ts";
import { nodeInternal, startsAsRead } from "./statement.ts";
import { leastJsonBytes } from "./_value_bytes.ts";

/** A query's answer: its head fields and the rows as JSON text. */
export interface RanQuery {
  /** Column names. */
  columns: string[];
  /** DuckDB type names. */
  types: string[];
  /** Rows returned. */
  count: number;
  /** Whether more rows existed. */
  truncated: boolean;
  /** The rows as a JSON array of arrays. */
  rows: string;
}

/** A refusal with its HTTP status, for the client. */
export class QueryRefused extends Error {
  /** HTTP status. */
  readonly status: number;

  /** @param status HTTP status @param message for the client */
  constructor(status: number, message: string) {
    super(message);
    this.name = "QueryRefused";
    this.status = status;
  }
}

/**
 * DuckDB's message for the person who wrote the statement: a missing table
 * names the one table there is (DuckDB would suggest catalog tables such as
 * `pg_tables`); anything else as DuckDB says it.
 *
 * @example
 * ```ts
 * import { plainMessage } from "./_run_query.ts";
 * plainMessage('Catalog Error: Table with name cities does not exist!\nDid you mean "pg_tables"?');
 * // "table cities does not exist: the version's records are the table records"
 * ```
 */
export function plainMessage(message: string): string {
  const missing = /Table with name (.+?) does not exist/.exec(message);
  if (!missing) return message;
  const name = missing[1].replace(/^"(.*)"$/, "$1");
  const shown = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : JSON.stringify(name);
  return `table ${shown} does not exist: the version's records are the table records`;
}

const TOO_LARGE = "the answer is over 32 MiB: select fewer or smaller columns, or fewer rows";

const READ_TYPES = new Set<number>([StatementType.SELECT, StatementType.EXPLAIN]);

/** Throws the refusal of a query holding no statement or more than one; resolves for exactly one. */
async function statementCount(connection: DuckDBConnection, sql: string): Promise<void> {
  const statements = await connection.extractStatements(sql);
  if (statements.count === 0) throw new QueryRefused(400, "the query holds no statement");
  if (statements.count > 1) {
    throw new QueryRefused(400, `one statement at a time: this query holds ${statements.count}`);
  }
}

/**
 * Runs `sql` on `connection`, returning at most `limit` rows; string values
 * pass through `scrub`. `unguarded` (tests only) lets any statement through.
 */
export async function runQuery(
  connection: DuckDBConnection,
  sql: string,
  limit: number,
  scrub: Scrubber,
  unguarded = false,
): Promise<RanQuery> {
  if (!unguarded) await refuseUnread(connection, sql);
  // Preparing refuses no statement or several as well; only then are they counted for the message
  // (counting first would parse every query twice).
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await connection.prepare(sql);
  } catch (e) {
    await statementCount(connection, sql);
    throw e;
  }
  try {
    if (!unguarded && !READ_TYPES.has(prepared.statementType)) throw new QueryRefused(400, READ_ONLY_MESSAGE);
    return await readRows(prepared, limit, scrub);
  } finally {
    prepared.destroySync();
  }
}

/** Refuses a statement that is not a read, or names what describes the node. */
async function refuseUnread(connection: DuckDBConnection, sql: string): Promise<void> {
  if (!startsAsRead(sql)) {
    await statementCount(connection, sql);
    throw new QueryRefused(400, READ_ONLY_MESSAGE);
  }
  const internal = nodeInternal(sql);
  if (internal !== null) {
    await statementCount(connection, sql);
    throw new QueryRefused(400, `${internal} is not available here: it describes the node, not the data`);
  }
}

/** Streams the prepared statement's rows as JSON, at most `limit`, within the answer's size. */
async function readRows(prepared: DuckDBPreparedStatement, limit: number, scrub: Scrubber): Promise<RanQuery> {
  const result = await prepared.stream();
  const columns = result.columnNames();
  const types = result.columnTypes();
  const writers = types.map((t) => columnWriter(t, "string"));
  const rows: string[] = [];
  let size = 0;
  let truncated = false;
  reading: while (true) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    // Refused before any value becomes a JavaScript string: that would take as much memory again.
    if (leastJsonBytes(chunk, MAX_ANSWER_BYTES - size) > MAX_ANSWER_BYTES - size) {
      throw new QueryRefused(400, TOO_LARGE);
    }
    const values = chunk.getColumns();
    for (let r = 0; r < chunk.rowCount; r++) {
      if (rows.length === limit) {
        truncated = true;
        break reading;
      }
      const cells = values.map((column, c) => {
        const v = column[r];
        return v === null || v === undefined ? "null" : writers[c](v);
      });
      const row = scrub(`[${cells.join(",")}]`);
      size += row.length + 1;
      if (size > MAX_ANSWER_BYTES) throw new QueryRefused(400, TOO_LARGE);
      rows.push(row);
    }
  }
  return {
    columns: columns.map(scrub),
    types: types.map((t) => t.toString()),
    count: rows.length,
    truncated,
    rows: `[${rows.join(",")}]`,
  };
}
