/**
 * An HTTP/1.1 server over any runtime's listener: at most `maxConnections`
 * connections served at once, each under the timeouts of
 * {@linkcode HttpLimits}. With every slot taken, a new connection takes the
 * slot of one that is not moving (see `_eviction.ts`); when every one is,
 * it hears 503 with `Retry-After: 1` and is closed. Shutdown
 * shutdown that stops accepting, closes idle connections, lets requests in
 * flight finish for a grace period and then cuts what is left.
 *
 * @module
 */
import { createDeadlines, deadlineTick } from "./_deadlines.ts";
import { evictionCandidate } from "./_eviction.ts";
import { LAST_ANSWER, writeResponse } from "./_response.ts";
import { type ErrorAnswer, serveConnection, type ServedConnection } from "./connection.ts";
import {
  type Conn,
  DEFAULT_LIMITS,
  type HttpLimits,
  type Listen,
  type QuickHandler,
  type ServeHandler,
} from "./types.ts";

/** Options of {@linkcode serveHttp}. */
export interface HttpServerOptions {
  /** Address to bind. */
  hostname: string;
  /** Port to bind; 0 picks a free one. */
  port: number;
  /** Limits and timeouts; missing ones take {@linkcode DEFAULT_LIMITS}. */
  limits?: Partial<HttpLimits>;
  /** The answers the server gives itself (503, 408, 400, ...); JSON `{"error": ...}` by default. */
  errorAnswer?: ErrorAnswer;
  /** Where the server reports trouble it survives (out of descriptors, ...). */
  log?: (line: string) => void;
  /** Answers some bodiless GET and HEAD requests from their heads alone, before the handler. */
  quick?: QuickHandler;
}

/** A listening server. */
export interface HttpServer {
  /** The address actually bound. */
  addr: { hostname: string; port: number };
  /** Connections open now (served ones, not those being turned away). */
  connections(): number;
  /** Stops accepting, closes idle connections, lets requests in flight finish within the grace period, then resolves. */
  shutdown(): Promise<void>;
}

/** Connections being turned away at once beyond which they are closed without an answer. */
const MAX_SHEDDING = 64;
const SHED_LINGER_MS = 1000;
/** How long a connection past the cap waits for a slot to free before it hears 503. */
const SLOT_WAIT_MS = 50;

function defaultErrorAnswer(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** A warning logger that says each line at most once a minute: a flood must not flood the log too. */
function warner(log: (line: string) => void): (line: string) => void {
  const reported = new Map<string, number>();
  return (line) => {
    const now = performance.now();
    if (now - (reported.get(line) ?? -Infinity) < 60_000) return;
    reported.set(line, now);
    log(`warning: ${line}`);
  };
}

/**
 * What turns a connection away: an answer (with `Retry-After: 1`) before
 * its request is read, then the connection closed; past
 * {@linkcode MAX_SHEDDING} at once, closed without an answer.
 */
function shedder(errorAnswer: ErrorAnswer): (conn: Conn, status: number, message: string) => void {
  let shedding = 0;
  return (conn, status, message) => {
    if (shedding >= MAX_SHEDDING) return conn.close();
    shedding++;
    const timer = setTimeout(() => conn.close(), SHED_LINGER_MS);
    const response = errorAnswer(status, message);
    response.headers.set("retry-after", "1");
    // The answer goes out before the request is read; what the client sends meanwhile is read and dropped
    // for a moment so that it reads the answer rather than a reset.
    void writeResponse((b) => conn.write(b), response, LAST_ANSWER)
      .then(async () => {
        conn.closeWrite();
        while (await conn.read() !== null);
      })
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        conn.close();
        shedding--;
      });
  };
}

/** Stops accepting, lets the `open` connections finish within `graceMs`, then cuts what is left. */
async function drained(listener: { close(): void }, open: Set<ServedConnection>, graceMs: number): Promise<void> {
  listener.close();
  for (const c of open) c.finish();
  const all = Promise.all([...open].map((c) => c.done));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
  await Promise.race([all, grace]);
  clearTimeout(timer);
  for (const c of open) c.destroy();
  await all;
}

/**
 * Serves `handler` on a listener opened by `listen` (the runtime's).
 */
export async function serveHttp(
  listen: Listen,
  handler: ServeHandler,
  options: HttpServerOptions,
): Promise<HttpServer> {
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const errorAnswer = options.errorAnswer ?? defaultErrorAnswer;
  const log = options.log ?? ((line: string) => console.error(line));
  const open = new Set<ServedConnection>();
  let waiting = 0;
  let stopping: Promise<void> | null = null;
  const deadlines = createDeadlines(
    deadlineTick([limits.headerTimeoutMs, limits.idleTimeoutMs, limits.stallTimeoutMs, limits.bodyGraceMs]),
  );
  let bound: string | null = null;
  const ownAuthority = () => bound;
  const context = { handler, limits, errorAnswer, deadlines, quick: options.quick ?? null, ownAuthority };

  const warn = warner(log);
  const shed = shedder(errorAnswer);

  const serve = (conn: Conn) => {
    const served = serveConnection(conn, context);
    open.add(served);
    void served.done.finally(() => open.delete(served));
  };
  /** Whether a slot is free for a new connection now, making one by dropping a connection that is not moving. */
  const slotFree = (): boolean => {
    if (open.size < limits.maxConnections) return true;
    const victim = evictionCandidate(open, limits, performance.now());
    if (victim === null) return false;
    open.delete(victim);
    victim.destroy();
    warn("the connection limit is reached: connections that are idle or not moving give their slots to new ones");
    return true;
  };
  const onConn = (conn: Conn) => {
    if (stopping) return shed(conn, 503, "this node is shutting down");
    if (slotFree()) return serve(conn);
    // A client that has just closed a connection and opened another may be seen in that order or not: the close
    // can still be on its way. So the new one waits a moment for a slot before it hears 503.
    if (waiting >= MAX_SHEDDING) return conn.close();
    waiting++;
    const started = performance.now();
    const retry = () => {
      if (stopping) return (waiting--, shed(conn, 503, "this node is shutting down"));
      if (slotFree()) return (waiting--, serve(conn));
      if (performance.now() - started < SLOT_WAIT_MS) return void setTimeout(retry, 5);
      waiting--;
      shed(conn, 503, `this node is serving its limit of ${limits.maxConnections} connections: try again`);
    };
    setTimeout(retry, 5);
  };

  const onError = (error: Error) =>
    warn(`accepting a connection failed (${error.message}); new connections are turned away until it clears`);

  const listener = await listen({ hostname: options.hostname, port: options.port }, onConn, onError);
  const { hostname, port } = listener.addr;
  bound = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  return {
    addr: listener.addr,
    connections: () => open.size,
    shutdown() {
      stopping ??= drained(listener, open, limits.shutdownGraceMs);
      return stopping;
    },
  };
}
