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
   * new ProtocolError(400, "malformed request line").status; // 400
   * ```
   */
  constructor(status: number, message: string) {
    super(message);
    this.name = "ProtocolError";
    this.status = status;
  }
}

/**
 * The peer went away inside its request, or sent it too slowly (the
 * connection has answered 408 itself): nothing more is written.
 */
export class PeerGone extends Error {
  /** The status the request log shows: 408 when too slow, 400 when the peer left. */
  readonly status: number;

  /**
   * @example
   * ```ts
   * import { PeerGone } from "./_errors.ts";
   * new PeerGone("the request body came slower than 1024 bytes a second", 408).status; // 408
   * ```
   */
  constructor(message: string, status = 400) {
    super(message);
    this.name = "PeerGone";
    this.status = status;
  }
}

/**
 * The status and message of an error that is the client's fault (a
 * malformed, cut or too slow request body, as reading a `Request`'s body
 * from this server rejects with), or null for any other error. Its `cause`
 * chain is followed, for errors wrapped on their way up.
 *
 * @example
 * ```ts
 * import { ProtocolError, requestFault } from "./_errors.ts";
 * requestFault(new ProtocolError(400, "malformed chunked body: bad chunk size")); // { status: 400, ... }
 * requestFault(new Error("disk on fire")); // null
 * ```
 */
export function requestFault(e: unknown): { status: number; message: string } | null {
  for (let at = e, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    if (at instanceof ProtocolError || at instanceof PeerGone) return { status: at.status, message: at.message };
  }
  return null;
}
