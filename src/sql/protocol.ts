/**
 * Messages between the node and its SQL worker processes: one JSON object a
 * line. A successful answer is two lines, the head and then the rows as raw
 * JSON text, so that numbers keep their exact written form.
 *
 * @module
 */

/** Run one statement over one version. */
export interface QueryRequest {
  /** Request id, echoed in the answer. */
  id: number;
  /** Message kind. */
  type: "query";
  /** The user's SQL. */
  sql: string;
  /** Most rows to return. */
  limit: number;
  /** Identity of the version (slug, number, parts) for the worker's instance cache. */
  key: string;
  /** Paths of the version's parts relative to the store, in record order. */
  parts: string[];
}

/**
 * Report the DuckDB settings of a version's sandbox whose values hold a path,
 * read by the worker itself (user SQL may not read settings): what a query
 * that got past every refusal could learn of the host. Answered as a query
 * with the columns `name` and `value`.
 */
export interface SettingsRequest {
  /** Request id, echoed in the answer. */
  id: number;
  /** Message kind. */
  type: "settings";
  /** As in {@linkcode QueryRequest}. */
  key: string;
  /** As in {@linkcode QueryRequest}. */
  parts: string[];
}

/** Stop the query with this id. */
export interface InterruptRequest {
  /** The query's id. */
  id: number;
  /** Message kind. */
  type: "interrupt";
}

/** What the node sends a worker. */
export type WorkerRequest = QueryRequest | SettingsRequest | InterruptRequest;

/** The head of a successful answer; the next line holds the rows. */
export interface QueryAnswerHead {
  /** The request id. */
  id: number;
  /** Success. */
  ok: true;
  /** Column names. */
  columns: string[];
  /** DuckDB type names, one per column. */
  types: string[];
  /** Rows returned. */
  count: number;
  /** Whether more rows existed than were returned. */
  truncated: boolean;
  /** Milliseconds the query took in the worker. */
  ms: number;
  /** The worker's resident size after the query, in bytes. */
  rss?: number;
}

/** A failed query. */
export interface QueryFailure {
  /** The request id. */
  id: number;
  /** Failure. */
  ok: false;
  /** HTTP status for the client. */
  status: number;
  /** Message for the client, free of server paths. */
  error: string;
  /** The worker's resident size after the query, in bytes. */
  rss?: number;
}

/** The first line of a worker: it has loaded DuckDB and takes requests. */
export interface WorkerReady {
  /** Message kind. */
  type: "ready";
  /** The Landlock ABI the worker runs confined under, 0 when it is not (see `runtime/landlock.ts`). */
  landlock: number;
}

/**
 * A request read: the worker has it (its answer follows). A worker that dies
 * before saying so never ran the request, which another may run instead.
 */
export interface WorkerAccepted {
  /** Message kind. */
  type: "accepted";
  /** The request's id. */
  id: number;
}

/** What a worker sends on a line of its own. */
export type WorkerMessage = QueryAnswerHead | QueryFailure | WorkerReady | WorkerAccepted;
