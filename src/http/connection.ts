/**
 * One HTTP/1.1 connection: requests read one after another (pipelined bytes
 * wait their turn), each handed to the handler as a Web `Request` and its
 * `Response` written back, under the timeouts of {@linkcode HttpLimits}: a
 * head must be whole within its time (else 408 and close), an idle
 * kept-alive connection is closed, a stalled body or an unread response is
 * dropped.
 *
 * @module
 */
import { PeerGone, ProtocolError } from "./_errors.ts";
import { type BodyReader, bodyReader } from "./_body.ts";
import type { Deadlines } from "./_deadlines.ts";
import { h2cRefusal } from "./_h2c.ts";
import { H2_PREFACE_LINE, parseHead, type RequestHead } from "./_head.ts";
import { createInput, type Input } from "./_input.ts";
import { LAST_ANSWER, plainAnswer, writeResponse } from "./_response.ts";
import { headView } from "./_head_view.ts";
import type { Conn, HttpLimits, QuickAnswer, QuickHandler, ServeHandler } from "./types.ts";

/** How the connection answers errors of its own (framing, limits, timeouts). */
export type ErrorAnswer = (status: number, message: string) => Response;

/** What a connection needs from its server. */
export interface ConnectionContext {
  /** The handler of every request. */
  handler: ServeHandler;
  /** Limits and timeouts. */
  limits: HttpLimits;
  /** Builds the answers the connection gives itself. */
  errorAnswer: ErrorAnswer;
  /** The server's deadlines, which time heads, idle waits, stalls and lingering. */
  deadlines: Deadlines;
  /** Answers some bodiless GET and HEAD requests from their heads alone; null for none. */
  quick: QuickHandler | null;
}

/** A connection being served, as its server tracks it. */
export interface ServedConnection {
  /** Resolves when the connection is closed. */
  done: Promise<void>;
  /** Whether a request is under way (its head has begun to arrive and its answer is not yet written). */
  busy(): boolean;
  /** Closes after the request under way, or now when idle. */
  finish(): void;
  /** Closes now. */
  destroy(): void;
}

/** Request bodies left unread by the handler are read off and dropped up to this size to keep the connection. */
const DRAIN_BYTES = 64 * 1024;
/** After an answer that closes the connection, unread bytes are dropped for at most this long and this much. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;
const CONTINUE = new TextEncoder().encode("HTTP/1.1 100 Continue\r\n\r\n");
const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * Serves `conn` until it closes.
 *
 * @example
 * ```ts ignore
 * const served = serveConnection(conn, { handler, limits: DEFAULT_LIMITS, errorAnswer });
 * await served.done;
 * ```
 */
export function serveConnection(conn: Conn, ctx: ConnectionContext): ServedConnection {
  const { limits } = ctx;
  const input = createInput(conn);
  const deadline = ctx.deadlines.create();
  let timedOut = false;
  let busy = false;
  let finishing = false;
  let closed = false;
  let inFlight: AbortController | null = null;
  let onClosed: () => void = () => {};
  const closedNow = new Promise<void>((r) => (onClosed = r));

  const close = () => {
    if (closed) return;
    closed = true;
    deadline.drop();
    inFlight?.abort();
    conn.close();
    onClosed();
  };
  /** Closes the connection unless `disarm` comes first within `ms`; `last` writes a final answer before. */
  const arm = (ms: number, last: (() => Promise<unknown>) | null = null) => {
    deadline.arm(ms, () => {
      timedOut = true;
      if (!last) return close();
      deadline.arm(1000, close);
      last().then(() => conn.closeWrite(), close);
    });
  };
  const disarm = () => deadline.disarm();
  const write = async (bytes: Uint8Array) => {
    arm(limits.stallTimeoutMs);
    try {
      await conn.write(bytes);
    } finally {
      disarm();
    }
  };
  const answer = (status: number, message: string, to = write) =>
    writeResponse(to, ctx.errorAnswer(status, message), LAST_ANSWER);
  const stallFill = async () => {
    arm(limits.stallTimeoutMs);
    try {
      const more = await input.fill();
      if (!more && timedOut) throw new PeerGone(`the request body sent nothing for ${limits.stallTimeoutMs / 1000} s`);
      return more;
    } finally {
      disarm();
    }
  };
  /** Ends the sending side, drops what the peer still sends (bounded), then closes: the peer reads the answer instead of a reset. */
  const linger = async (bytes = LINGER_BYTES) => {
    conn.closeWrite();
    arm(LINGER_MS);
    let dropped = 0;
    while (dropped <= bytes && await input.fill()) {
      dropped += input.pending;
      input.skip(input.pending);
    }
    close();
  };
  const refuse = (e: ProtocolError) => answer(e.status, e.message).then(() => linger(), close);
  const headTimeout = (): Promise<unknown> =>
    answer(408, `the request head was not complete within ${limits.headerTimeoutMs / 1000} s`, (b) => conn.write(b));

  /** Writes an answer given from the head alone; false when the connection must not carry another. */
  const writeQuick = async (head: RequestHead, quick: QuickAnswer): Promise<boolean> => {
    const keepAlive = head.keepAlive && !finishing;
    const options = { head: head.method === "HEAD", keepAlive, minor: head.minor, idleSeconds: idleSeconds() };
    try {
      await write(plainAnswer(quick.status, quick.headers, quick.body, options));
    } catch {
      close();
      return false;
    }
    if (!keepAlive) await linger(0);
    return keepAlive;
  };
  const idleSeconds = () => Math.round(limits.idleTimeoutMs / 1000);

  /** One request and its answer; false when the connection must not carry another. */
  const exchange = async (text: string): Promise<boolean> => {
    let head: RequestHead;
    try {
      head = parseHead(text);
      if (head.authority === null) throw new ProtocolError(400, "a Host header is required");
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      await refuse(e);
      return false;
    }
    if (ctx.quick !== null && head.body.kind === "none" && (head.method === "GET" || head.method === "HEAD")) {
      let quick: QuickAnswer | null = null;
      try {
        quick = await ctx.quick(headView(head), { remoteAddr: conn.remoteAddr });
      } catch {
        // The handler answers it, errors included.
      }
      if (quick !== null) return await writeQuick(head, quick);
    }
    const body = bodyReader(head.body, input, stallFill);
    let bodyError: unknown = null;
    let continueSent = false;
    const stream = BODYLESS.has(head.method) || head.body.kind === "none" ? null : new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          if (head.expectContinue && !continueSent) {
            continueSent = true;
            await write(CONTINUE);
          }
          const chunk = await body.next();
          if (chunk === null) controller.close();
          else controller.enqueue(chunk);
        } catch (e) {
          bodyError = e;
          controller.error(e);
        }
      },
    }, { highWaterMark: 0 });
    inFlight = new AbortController();
    let request: Request;
    try {
      request = new Request(`http://${head.authority}${head.target === "*" ? "/" : head.target}`, {
        method: head.method,
        headers: head.fields,
        body: stream,
        signal: inFlight.signal,
        // @ts-ignore: streamed request bodies need `duplex`, which the DOM types do not know
        duplex: "half",
      });
    } catch {
      await refuse(new ProtocolError(400, "malformed request: bad Host or target"));
      return false;
    }
    let response: Response;
    try {
      response = await ctx.handler(request, { remoteAddr: conn.remoteAddr });
    } catch {
      response = ctx.errorAnswer(500, "internal error");
    }
    if (bodyError instanceof PeerGone || closed) {
      await response.body?.cancel().catch(() => {});
      close();
      return false;
    }
    if (bodyError instanceof ProtocolError) {
      await response.body?.cancel().catch(() => {});
      await refuse(bodyError);
      return false;
    }
    const keepAlive = head.keepAlive && !finishing && !wantsClose(response) && bodyKeepable(body, head, continueSent);
    let kept: boolean;
    try {
      kept = await writeResponse(write, response, {
        head: head.method === "HEAD",
        keepAlive,
        minor: head.minor,
        idleSeconds: idleSeconds(),
      });
    } catch {
      close();
      return false;
    } finally {
      inFlight = null;
    }
    if (!kept) {
      await linger(body.done ? 0 : LINGER_BYTES);
      return false;
    }
    try {
      while (!body.done) await body.next();
    } catch {
      close();
      return false;
    }
    return true;
  };

  const run = async () => {
    let first = true;
    while (!closed && !finishing) {
      busy = false;
      if (input.pending === 0) {
        // The first head is timed from the connection's opening; later ones wait as idle keep-alive.
        arm(first ? limits.headerTimeoutMs : limits.idleTimeoutMs, first ? headTimeout : null);
        if (!(await input.fill())) break;
      }
      busy = true;
      if (!first) arm(limits.headerTimeoutMs, headTimeout);
      let head: string | "h2c";
      try {
        head = await readHead(input, limits.maxHeadBytes);
      } catch (e) {
        if (e instanceof ProtocolError && !timedOut) await refuse(e);
        break;
      } finally {
        if (!timedOut) disarm();
      }
      if (timedOut) break;
      if (head === "h2c") {
        await conn.write(h2cRefusal()).then(() => linger(0), close);
        break;
      }
      first = false;
      if (!(await exchange(head))) break;
    }
    close();
  };

  // A handler still at work when the connection is cut goes on alone; the connection is done.
  const done = Promise.race([run().catch(close), closedNow]);
  return {
    done,
    busy: () => busy,
    finish() {
      finishing = true;
      if (!busy) close();
    },
    destroy: close,
  };
}

/** Whether the handler asked for the connection to close. */
function wantsClose(response: Response): boolean {
  return /(^|,)\s*close\s*(,|$)/i.test(response.headers.get("connection") ?? "");
}

/** Whether what is left of the request body can be read off cheaply so the connection carries on. */
function bodyKeepable(body: BodyReader, head: RequestHead, continueSent: boolean): boolean {
  if (body.done) return true;
  if (head.expectContinue && !continueSent) return false;
  return body.remaining !== null && body.remaining <= DRAIN_BYTES;
}

function latin1Text(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  }
  return text;
}

/**
 * Reads the next request head (leading blank lines skipped): its text, or
 * "h2c" for an HTTP/2 preface. Rejects with a {@linkcode ProtocolError} for
 * a head over `maxBytes`, or a plain error when the peer closed first.
 */
async function readHead(input: Input, maxBytes: number): Promise<string | "h2c"> {
  let scanned = 0;
  while (true) {
    while (input.pending >= 2 && input.peek(1)[0] === 13 && input.peek(2)[1] === 10) input.skip(2);
    const end = input.headEnd(Math.max(0, scanned - 3));
    if (end > maxBytes || (end < 0 && input.pending > maxBytes)) {
      throw new ProtocolError(431, `the request head is over ${maxBytes} bytes`);
    }
    if (end >= 0) {
      const text = latin1Text(input.take(end));
      input.skip(4);
      return text === H2_PREFACE_LINE ? "h2c" : text;
    }
    scanned = input.pending;
    if (!(await input.fill())) throw new Error("the peer closed before its request head was whole");
  }
}
