/**
 * Errors of the HTTP layer itself (framing, limits, timeouts), answered by the
 * connection before or instead of the handler.
 *
 * @module
 */

/** A request the connection refuses: the status to answer and why. */
export class ProtocolError extends Error {
  /** The status to answer (the connection closes after it: framing can no longer be trusted). */
  readonly status: number;

  /**
   * @example
   * ```ts
   * import { ProtocolError } from "./_errors.ts";
   * throw new ProtocolError(400, "malformed request line");
   * ```
   */
  constructor(status: number, message: string) {
    super(message);
    this.name = "ProtocolError";
    this.status = status;
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
