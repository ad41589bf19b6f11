/**
 * The limits of SQL on a node (spec section 8) and the messages that say so.
 *
 * @module
 */
import { WIRE_LIMITS } from "../wire/mod.ts";

/** Longest statement, in characters. */
export const MAX_SQL_CHARS: number = WIRE_LIMITS.sqlChars;
/** Rows returned when the request names no limit. */
export const DEFAULT_ROWS: number = WIRE_LIMITS.rows.default;
/** Most rows one answer carries. */
export const MAX_ROWS: number = WIRE_LIMITS.rows.max;
/** How long a query may run before it is stopped (408). */
export const QUERY_TIMEOUT_MS: number = WIRE_LIMITS.queryTimeoutMs;
/** Queries that run at once, one per worker process. */
export const CONCURRENCY = 2;
/** How long a query waits for a free worker before 429. */
export const QUEUE_WAIT_MS = 5_000;
/** How long an interrupted query has to stop before its worker is killed. */
export const INTERRUPT_GRACE_MS = 3_000;
/** Largest answer a worker sends (bytes of JSON); beyond it the query fails. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The refusal of anything but one read statement. */
export const READ_ONLY_MESSAGE =
  "queries are read-only — SELECT, WITH, FROM, DESCRIBE, SUMMARIZE or VALUES over the table records";
