/**
 * Errors of the HTTP layer itself (framing, limits, timeouts), answered by the
 * connection before or instead of the handler.
 *
 * @module
 */

/** A request the connection refuses: the status to answer and why. */
export class ProtocolError extends Error {
  /** The status to answer. */
  readonly status: number;
  /** Whether the connection must close after the answer (framing can no longer be trusted). */
  readonly close: boolean;

  /**
   * @example
   * ```ts
   * import { ProtocolError } from "./_errors.ts";
   * throw new ProtocolError(400, "malformed request line");
   * ```
   */
  constructor(status: number, message: string, close = true) {
    super(message);
    this.name = "ProtocolError";
    this.status = status;
    this.close = close;
  }
}

/** The peer stopped sending for longer than allowed, or went away: the connection is dropped without an answer. */
export class PeerGone extends Error {
  /**
   * @example
   * ```ts
   * import { PeerGone } from "./_errors.ts";
   * throw new PeerGone("the request body stalled for 60 s");
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "PeerGone";
  }
}
