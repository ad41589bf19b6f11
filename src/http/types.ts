/**
 * What the HTTP layer needs from a runtime: byte-stream connections and a
 * listener that hands them over. Everything above this line is the same code
 * on Deno and on Node.
 *
 * @module
 */

/** One accepted byte-stream connection. */
export interface Conn {
  /** The peer's address, for the request log. */
  readonly remoteAddr: string;
  /** The next bytes the peer sent; null at the end of the stream or once the connection is closed. */
  read(): Promise<Uint8Array | null>;
  /** Writes every byte; resolves once the transport has taken them, rejects when the connection is gone. */
  write(bytes: Uint8Array): Promise<void>;
  /** Ends the sending side (FIN); reads go on. */
  closeWrite(): void;
  /** Closes both sides now; pending reads end with null, pending writes reject. */
  close(): void;
}

/** A listening socket as a runtime opens it. */
export interface Listener {
  /** The address actually bound. */
  addr: { hostname: string; port: number };
  /** Stops accepting; connections already handed over stay open. */
  close(): void;
}

/**
 * Opens a listener that calls `onConn` for every accepted connection and
 * `onError` for accept failures it survived (out of descriptors, ...).
 */
export type Listen = (
  options: { hostname: string; port: number },
  onConn: (conn: Conn) => void,
  onError: (error: Error) => void,
) => Promise<Listener>;

/** Connection facts passed to the handler. */
export interface ServeInfo {
  /** The client's address. */
  remoteAddr?: string;
  /**
   * The request target as the client sent it (origin form). A `Request`'s URL
   * is the target as the WHATWG URL parser reads it, which resolves dot
   * segments and turns backslashes into slashes; routing on this instead
   * keeps such paths from reaching a route under another name.
   */
  target?: string;
  /**
   * Set by the handler to learn how many bytes the answer took on the wire
   * (head and body), once it is written; not called when the connection
   * failed first.
   */
  sent?: (bytes: number) => void;
}

/**
 * What a request shows before its body: its method, URL and header fields.
 * A `Request` is one; so is the view {@linkcode QuickHandler} is given.
 */
export interface RequestHeadView {
  /** Method, as sent. */
  readonly method: string;
  /** The absolute URL, its authority the request's own. */
  readonly url: string;
  /** Header fields by name, combined as `Headers` combines them. */
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
}

/** An answer given from a request's head alone. */
export interface QuickAnswer {
  /** HTTP status. */
  status: number;
  /** Header fields, names lowercase; the server adds the framing ones. */
  headers: readonly (readonly [string, string])[];
  /** The whole body (not sent for HEAD). */
  body: Uint8Array;
}

/**
 * Answers some bodiless GET and HEAD requests from their heads alone, before
 * any `Request` or `Response` is made (a health check polled often); null
 * passes the request on to the handler, which must answer it the same way.
 */
export type QuickHandler = (head: RequestHeadView, info: ServeInfo) => Promise<QuickAnswer | null>;

/** A Web-standard handler as the server calls it. */
export type ServeHandler = (req: Request, info?: ServeInfo) => Promise<Response>;

/** Limits and timeouts of the HTTP layer; every field has a default. */
export interface HttpLimits {
  /**
   * Connections served at once (default 64). Past it a new connection takes
   * the slot of one that is not moving (see `evictAfterMs`), or else is
   * answered 503 with `Retry-After: 1` and closed.
   */
  maxConnections: number;
  /**
   * A request head must be complete this long after its first byte, or after the connection opened (default 10 s):
   * else 408 and close, or a close alone when the connection sent nothing.
   */
  headerTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long (default 5 s). */
  idleTimeoutMs: number;
  /** A response the client stops reading for this long is dropped (default 60 s). */
  stallTimeoutMs: number;
  /** A whole request, head and body, must have arrived this long after its first byte, else 408 and close (default 60 s). */
  requestTimeoutMs: number;
  /**
   * A request body must arrive at this many bytes a second on average (head
   * included) once `bodyGraceMs` have passed since the request began, else
   * 408 and close (default 1024).
   */
  minBodyRate: number;
  /** How long a request may send its body at any pace before `minBodyRate` applies (default 5 s). */
  bodyGraceMs: number;
  /**
   * With every slot taken, a new connection takes the slot of one that is
   * idle, lingering after its last answer, or waiting on its peer for this
   * long while moving slower than `minBodyRate`; only when none is, it
   * hears 503 (default 1 s).
   */
  evictAfterMs: number;
  /** On shutdown, requests in flight get this long before their connections are cut (default 5 s). */
  shutdownGraceMs: number;
  /** The largest request head, request line and fields together (default 32 KiB). */
  maxHeadBytes: number;
}

/** The defaults of {@linkcode HttpLimits}, those of the reference node. */
export const DEFAULT_LIMITS: Readonly<HttpLimits> = {
  maxConnections: 64,
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 5_000,
  stallTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  minBodyRate: 1024,
  bodyGraceMs: 5_000,
  evictAfterMs: 1_000,
  shutdownGraceMs: 5_000,
  maxHeadBytes: 32 * 1024,
};
