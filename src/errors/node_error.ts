/**
 * The node's domain errors: what went wrong, said once, whatever answers
 * it. A service throws a {@linkcode NodeError} of a kind (not found,
 * refused, busy, too large, disk full, ...); the node's HTTP handler turns
 * it into a status and `{"error": ...}` in one place, MCP into a tool error
 * `<status>: <message>` in one place, the command line into `error: ...`.
 *
 * @example
 * ```ts
 * import { NodeError, statusOf } from "./node_error.ts";
 * const e = new NodeError("not-found", "project not found on this node");
 * statusOf(e.kind); // 404
 * ```
 *
 * @module
 */

/** What kind of failure an error is; each has its HTTP status (see {@linkcode statusOf}). */
export type ErrorKind =
  | "bad-request"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "timeout"
  | "conflict"
  | "gone"
  | "too-large"
  | "unsupported-type"
  | "range-not-satisfiable"
  | "unprocessable"
  | "busy"
  | "internal"
  | "not-implemented"
  | "unavailable"
  | "disk-full";

const STATUS: Readonly<Record<ErrorKind, number>> = {
  "bad-request": 400,
  "unauthorized": 401,
  "forbidden": 403,
  "not-found": 404,
  "method-not-allowed": 405,
  "timeout": 408,
  "conflict": 409,
  "gone": 410,
  "too-large": 413,
  "unsupported-type": 415,
  "range-not-satisfiable": 416,
  "unprocessable": 422,
  "busy": 429,
  "internal": 500,
  "not-implemented": 501,
  "unavailable": 503,
  "disk-full": 507,
};

/**
 * The HTTP status of a kind of failure (the wire's statuses: MCP tool errors
 * carry them too).
 *
 * @example
 * ```ts
 * import { statusOf } from "./node_error.ts";
 * statusOf("busy"); // 429
 * ```
 */
export function statusOf(kind: ErrorKind): number {
  return STATUS[kind];
}

/**
 * The kind of failure an HTTP status stands for, `internal` for one the
 * node does not use.
 *
 * @example
 * ```ts
 * import { kindOfStatus } from "./node_error.ts";
 * kindOfStatus(413); // "too-large"
 * ```
 */
export function kindOfStatus(status: number): ErrorKind {
  const found = (Object.entries(STATUS) as [ErrorKind, number][]).find(([, s]) => s === status);
  return found ? found[0] : "internal";
}

/** A failure the client is told of: its kind, a message free of the node's paths, and extra answer headers. */
export class NodeError extends Error {
  /** What kind of failure it is. */
  readonly kind: ErrorKind;
  /** Extra headers for an HTTP answer (`allow`, `retry-after`, `www-authenticate`). */
  readonly headers: Record<string, string>;

  /**
   * A failure of kind `kind` (which gives its status), saying `message`,
   * with the headers its answer carries (`retry-after`, `allow`, ...).
   *
   * @example
   * ```ts
   * import { NodeError } from "./node_error.ts";
   * new NodeError("busy", "too many queries at once", { "retry-after": "2" }).status; // 429
   * ```
   */
  constructor(kind: ErrorKind, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "NodeError";
    this.kind = kind;
    this.headers = headers;
  }

  /** The HTTP status of its kind. */
  get status(): number {
    return STATUS[this.kind];
  }
}
