/**
 * What an object store said went wrong, as a domain error: S3's code and
 * message (`NoSuchKey`, `PreconditionFailed`, `SlowDown`, ...), the status
 * it came with, and the call it answered, under the {@linkcode NodeError}
 * kind that fits it (a missing key is `not-found`, a lost conditional write
 * `conflict`, a server or network failure `unavailable`).
 *
 * @module
 */
import { type ErrorKind, NodeError } from "../errors/mod.ts";

/** A call to the object store that failed. */
export class ObjectStoreError extends NodeError {
  /** S3's error code (`NoSuchKey`), or `NetworkError` when no answer came. */
  readonly code: string;
  /** The status the object store answered with; 0 when none came. */
  readonly s3Status: number;
  /** The call, `GET s3://bucket/key`. */
  readonly call: string;

  /**
   * @example
   * ```ts
   * import { ObjectStoreError } from "./errors.ts";
   * const e = new ObjectStoreError("GET s3://b/k", 404, "NoSuchKey", "The specified key does not exist.");
   * e.kind; // "not-found"
   * e.message; // "object store: GET s3://b/k: NoSuchKey: The specified key does not exist."
   * ```
   */
  constructor(call: string, s3Status: number, code: string, message: string) {
    super(kindOf(s3Status, code), `object store: ${call}: ${code}${message ? `: ${message}` : ""}`);
    this.name = "ObjectStoreError";
    this.code = code;
    this.s3Status = s3Status;
    this.call = call;
  }

  /** Whether trying the same call again may go better (a network failure, a 5xx, throttling). */
  get transient(): boolean {
    return isTransient(this.s3Status, this.code);
  }
}

/**
 * Whether an answer of `status` and `code` is worth trying again.
 *
 * @example
 * ```ts
 * import { isTransient } from "./errors.ts";
 * isTransient(503, "SlowDown"); // true
 * isTransient(404, "NoSuchKey"); // false
 * ```
 */
export function isTransient(status: number, code: string): boolean {
  return status === 0 || status >= 500 || status === 429 || code === "SlowDown" || code === "RequestTimeout";
}

function kindOf(status: number, code: string): ErrorKind {
  if (isTransient(status, code)) return "unavailable";
  if (status === 404) return "not-found";
  if (status === 409 || status === 412) return "conflict";
  if (status === 416) return "range-not-satisfiable";
  // Refused credentials, a bad signature, a request the server does not take: the node's setup, not the caller.
  return "internal";
}

/**
 * The code S3 gives with `status` when an answer has no XML body (HEAD).
 *
 * @example
 * ```ts
 * import { codeOfStatus } from "./errors.ts";
 * codeOfStatus(404); // "NotFound"
 * ```
 */
export function codeOfStatus(status: number): string {
  const known: Record<number, string> = {
    301: "PermanentRedirect",
    304: "NotModified",
    400: "BadRequest",
    403: "Forbidden",
    404: "NotFound",
    409: "Conflict",
    412: "PreconditionFailed",
    416: "InvalidRange",
    500: "InternalError",
    503: "ServiceUnavailable",
  };
  return known[status] ?? `HTTP${status}`;
}
