/**
 * One HTTP/1.1 connection: requests read one after another (pipelined bytes
 * wait their turn), each served by {@linkcode exchange}, under the timeouts
 * of {@linkcode HttpLimits}: a head must be whole within its time (else 408
 * and close; a connection that sent nothing is closed without one), a body
 * must keep up a minimum rate and the whole request a deadline (else 408 and
 * close), an idle kept-alive connection is closed, an unread response is
 * dropped.
 *
 * @module
 */
import { ProtocolError } from "./_errors.ts";
import type { Deadlines } from "./_deadlines.ts";
import { exchange, type ExchangeContext } from "./_exchange.ts";
import { h2cRefusal } from "./_h2c.ts";
import { H2_PREFACE_LINE } from "./_head.ts";
import { createLink, type ErrorAnswer, type Link, type Standing } from "./_link.ts";
import type { Conn } from "./types.ts";

export type { ErrorAnswer } from "./_link.ts";

/** What a connection needs from its server. */
export interface ConnectionContext extends ExchangeContext {
  /** Builds the answers the connection gives itself. */
  errorAnswer: ErrorAnswer;
  /** The server's deadlines, which time heads, idle waits, bodies, stalls and lingering. */
  deadlines: Deadlines;
}

/** A connection being served, as its server tracks it. */
export interface ServedConnection {
  /** Resolves when the connection is closed. */
  done: Promise<void>;
  /** Whether a request is under way (its head has begun to arrive and its answer is not yet written). */
  busy(): boolean;
  /** Where the connection stands: what it waits for, since when, and how much its request has sent. */
  standing(): Readonly<Standing>;
  /** Closes after the request under way, or now when idle. */
  finish(): void;
  /** Closes now. */
  destroy(): void;
}

/**
 * Serves `conn` until it closes.
 */
export function serveConnection(conn: Conn, ctx: ConnectionContext): ServedConnection {
  const link = createLink(conn, ctx.limits, ctx.deadlines.create(), ctx.errorAnswer);
  let busy = false;
  let finishing = false;

  const run = async () => {
    let first = true;
    while (!link.closed && !finishing) {
      busy = false;
      if (!(await link.awaitRequest(first))) break;
      busy = true;
      let head: string | "h2c";
      try {
        head = await readHead(link, ctx.limits.maxHeadBytes);
      } catch (e) {
        if (e instanceof ProtocolError && !link.timedOut) await link.refuse(e);
        break;
      } finally {
        link.headRead();
      }
      if (link.timedOut) break;
      if (head === "h2c") {
        await conn.write(h2cRefusal()).then(() => link.linger(0), link.close);
        break;
      }
      first = false;
      if (!(await exchange(link, head, ctx, () => finishing))) break;
    }
    if (link.timedOut) await link.closedNow;
    link.close();
  };

  // A handler still at work when the connection is cut goes on alone; the connection is done.
  const done = Promise.race([run().catch(link.close), link.closedNow]);
  return {
    done,
    busy: () => busy,
    standing: () => link.standing,
    finish() {
      finishing = true;
      if (!busy) link.close();
    },
    destroy: link.close,
  };
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
async function readHead(link: Link, maxBytes: number): Promise<string | "h2c"> {
  const input = link.input;
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
    // A line ending that is not CRLF is refused as soon as it arrives, not once the head times out.
    if (bareLineBreak(input.peek(input.pending), Math.max(0, scanned - 1))) {
      throw new ProtocolError(400, "bare CR or LF in the request head");
    }
    scanned = input.pending;
    if (!(await link.fillHead())) throw new Error("the peer closed before its request head was whole");
  }
}

/** Whether `bytes` from `from` hold an LF not after a CR, or a CR followed by anything but LF. */
function bareLineBreak(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === 10 && (i === 0 || bytes[i - 1] !== 13)) return true;
    if (bytes[i] === 13 && i + 1 < bytes.length && bytes[i + 1] !== 10) return true;
  }
  return false;
}
