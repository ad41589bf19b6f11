/**
 * Errors a client call raises: `SvcError` names the base URL and carries the
 * status, a short code and the answer's body.
 *
 * @module
 */

/** A call to a node or the origin that did not succeed. */
export class SvcError extends Error {
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  /** A short code (`http_404`, `network`, `timeout`, `bad_answer`). */
  readonly code: string;
  /** The answer's parsed body, when there was one. */
  readonly body: unknown;

  /**
   * @example
   * ```ts
   * import { SvcError } from "./errors.ts";
   * throw new SvcError("http://127.0.0.1:8686: project notes is not on this node", 404, "http_404", null);
   * ```
   */
  constructor(message: string, status: number, code: string, body: unknown) {
    super(message.length > 300 ? message.slice(0, 299) + "…" : message);
    this.name = "SvcError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
}
