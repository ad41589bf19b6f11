/**
 * One request and its answer on a connection: the head parsed, answered
 * from the quick lane or handed to the handler as a Web `Request` whose
 * body streams from the connection, and the `Response` written back.
 *
 * A request answered before its body has arrived (401, 403, 413, ...)
 * closes its connection after the answer unless the rest of the body is
 * already in hand: reading on would let a client keep the connection by
 * trickling a body nobody wants.
 *
 * @module
 */
import { PeerGone, ProtocolError } from "./_errors.ts";
import { type BodyReader, bodyReader } from "./_body.ts";
import { parseHead, type RequestHead } from "./_head.ts";
import { headView } from "./_head_view.ts";
import { LINGER_BYTES, type Link } from "./_link.ts";
import { plainAnswer, writeResponse } from "./_response.ts";
import type { HttpLimits, QuickHandler, ServeHandler, ServeInfo } from "./types.ts";

/** What an exchange needs from its server. */
export interface ExchangeContext {
  /** The handler of every request. */
  handler: ServeHandler;
  /** Answers some bodiless GET and HEAD requests from their heads alone; null for none. */
  quick: QuickHandler | null;
  /** Limits and timeouts. */
  limits: HttpLimits;
  /** Builds the answers the connection gives itself. */
  errorAnswer: (status: number, message: string) => Response;
  /** The address the server is bound to, as an authority, for HTTP/1.0 requests without `Host` (null: not yet). */
  ownAuthority: () => string | null;
}

const CONTINUE = new TextEncoder().encode("HTTP/1.1 100 Continue\r\n\r\n");
const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * Serves the request whose head is `text` on `link`; resolves false when
 * the connection must not carry another.
 */
export async function exchange(
  link: Link,
  text: string,
  ctx: ExchangeContext,
  finishing: () => boolean,
): Promise<boolean> {
  let head: RequestHead;
  try {
    head = parseHead(text);
    // HTTP/1.0 has no Host requirement (health checkers still send such requests): it is for this server.
    if (head.authority === null && head.minor === 0) head = { ...head, authority: ctx.ownAuthority() };
    if (head.authority === null) throw new ProtocolError(400, "a Host header is required");
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    await link.refuse(e);
    return false;
  }
  if (head.closing && !head.upgrade && sentAfterLast(head, link)) {
    await link.refuse(
      new ProtocolError(400, "a request was sent after one that said it was the last (Connection: close)"),
    );
    return false;
  }
  const info: ServeInfo = { remoteAddr: link.remoteAddr, target: head.target };
  const idleSeconds = Math.round(ctx.limits.idleTimeoutMs / 1000);
  if (ctx.quick !== null && head.body.kind === "none" && (head.method === "GET" || head.method === "HEAD")) {
    let quick = null;
    try {
      quick = await ctx.quick(headView(head), info);
    } catch {
      // The handler answers it, errors included.
    }
    if (quick !== null) {
      const keepAlive = reusable(head) && !finishing();
      const options = { head: head.method === "HEAD", keepAlive, minor: head.minor, idleSeconds };
      const bytes = plainAnswer(quick.status, quick.headers, quick.body, options);
      return await finish(link, () => link.write(bytes).then(() => (info.sent?.(bytes.byteLength), keepAlive)), 0);
    }
  }
  const body = bodyReader(head.body, link.input, link.fillBody);
  const sent = { continued: false, error: null as unknown };
  const request = requestOf(head, body, link, sent);
  if (request === null) {
    await link.refuse(new ProtocolError(400, "malformed request: bad Host or target"));
    return false;
  }
  let response: Response;
  try {
    response = await ctx.handler(request, info);
  } catch {
    response = ctx.errorAnswer(500, "internal error");
  }
  if (sent.error instanceof PeerGone || link.closed || link.timedOut) {
    await response.body?.cancel().catch(() => {});
    if (link.timedOut) await link.closedNow;
    link.close();
    return false;
  }
  if (sent.error instanceof ProtocolError) {
    await response.body?.cancel().catch(() => {});
    await link.refuse(sent.error);
    return false;
  }
  const keepAlive = reusable(head) && !finishing() && !wantsClose(response) &&
    bodyInHand(body, head, sent.continued, link);
  const options = { head: head.method === "HEAD", keepAlive, minor: head.minor, idleSeconds };
  let bytes = 0;
  const write = (chunk: Uint8Array) => {
    bytes += chunk.byteLength;
    return link.write(chunk);
  };
  const written = () =>
    writeResponse(info.sent ? write : link.write, response, options)
      .then((kept) => (info.sent?.(bytes), kept))
      .finally(() => (link.inFlight = null));
  return await finish(link, written, body.done ? 0 : LINGER_BYTES, body);
}

/** Writes an answer; false (and the connection let go) unless it may carry another request. */
async function finish(
  link: Link,
  write: () => Promise<boolean>,
  lingerBytes: number,
  body: BodyReader | null = null,
): Promise<boolean> {
  let kept: boolean;
  try {
    kept = await write();
  } catch {
    link.close();
    return false;
  }
  if (!kept) {
    await link.linger(lingerBytes);
    return false;
  }
  // Only a body already in hand is left here (see bodyInHand): reading it off cannot wait on the peer.
  try {
    while (body !== null && !body.done) await body.next();
  } catch {
    link.close();
    return false;
  }
  return true;
}

/** The request the handler is given, or null when its URL cannot be built. */
function requestOf(
  head: RequestHead,
  body: BodyReader,
  link: Link,
  sent: { continued: boolean; error: unknown },
): Request | null {
  const stream = BODYLESS.has(head.method) || head.body.kind === "none" ? null : new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (head.expectContinue && !sent.continued) {
          sent.continued = true;
          await link.write(CONTINUE);
        }
        const chunk = await body.next();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      } catch (e) {
        sent.error = e;
        controller.error(e);
      }
    },
  }, { highWaterMark: 0 });
  link.inFlight = new AbortController();
  try {
    return new Request(`http://${head.authority}${head.target === "*" ? "/" : head.target}`, {
      method: head.method,
      headers: head.fields,
      body: stream,
      signal: link.inFlight.signal,
      // @ts-ignore: streamed request bodies need `duplex`, which the DOM types do not know
      duplex: "half",
    });
  } catch {
    return null;
  }
}

/**
 * Whether the connection may carry another request after `head`'s answer,
 * as llhttp has it: not after an HTTP/1.0 request (kept alive or not, what
 * follows one is not read), nor after an upgrade (what follows is another
 * protocol's).
 */
function reusable(head: RequestHead): boolean {
  return head.keepAlive && head.minor === 1 && !head.upgrade;
}

/**
 * Whether bytes other than blank lines were already sent after the request
 * `head` frames (a chunked body only when it is all in hand; otherwise what
 * follows it goes unread once it ends).
 */
function sentAfterLast(head: RequestHead, link: Link): boolean {
  const pending = link.input.peek(link.input.pending);
  const end = head.body.kind === "chunked" ? chunkedEnd(pending) : head.body.kind === "length" ? head.body.length : 0;
  if (end === null) return false;
  for (let i = end; i < pending.length; i++) if (pending[i] !== 13 && pending[i] !== 10) return true;
  return false;
}

/** Where a chunked body that starts `bytes` ends (after its trailers), or null when it is not all there or not well formed. */
function chunkedEnd(bytes: Uint8Array): number | null {
  const lineEnd = (from: number) => {
    for (let i = from; i + 1 < bytes.length; i++) if (bytes[i] === 13 && bytes[i + 1] === 10) return i;
    return -1;
  };
  let at = 0;
  while (true) {
    const end = lineEnd(at);
    if (end < 0) return null;
    const size = /^([0-9A-Fa-f]{1,16})[ \t]*(?:;.*)?$/.exec(String.fromCharCode(...bytes.subarray(at, end)));
    if (!size) return null;
    const n = parseInt(size[1], 16);
    at = end + 2;
    if (n === 0) break;
    at += n + 2;
    if (at > bytes.length) return null;
  }
  while (true) { // trailer lines, up to the blank one
    const end = lineEnd(at);
    if (end < 0) return null;
    const blank = end === at;
    at = end + 2;
    if (blank) return at;
  }
}

/** Whether the handler asked for the connection to close. */
function wantsClose(response: Response): boolean {
  return /(^|,)\s*close\s*(,|$)/i.test(response.headers.get("connection") ?? "");
}

/** Whether what is left of the request body, if anything, has already arrived whole. */
function bodyInHand(body: BodyReader, head: RequestHead, continued: boolean, link: Link): boolean {
  if (body.done) return true;
  if (head.expectContinue && !continued) return false;
  return body.remaining !== null && body.remaining <= link.input.pending;
}
