/**
 * What a runtime adapter offers: serving a Web-standard handler, shutdown
 * signals and exit.
 *
 * @module
 */

/** Connection facts passed to the handler. */
export interface ServeInfo {
  /** The client's address. */
  remoteAddr?: string;
}

/** A Web-standard handler as the adapters serve it. */
export type ServeHandler = (req: Request, info?: ServeInfo) => Promise<Response>;

/** Where to listen. */
export interface ServeOptions {
  /** Address to bind. */
  hostname: string;
  /** Port to bind; 0 picks a free one. */
  port: number;
}

/** A listening server. */
export interface RunningServer {
  /** The address actually bound. */
  addr: { hostname: string; port: number };
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  shutdown(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}
