/**
 * One connection's transport under its deadlines, and where it stands: the
 * reads and writes a connection makes, each timed (a head must be whole in
 * its time, a request's body must keep up a minimum rate and the whole
 * request a deadline, a write must not stall), and a record of what the
 * connection is waiting for, which its server reads to choose a connection
 * to drop when every slot is taken.
 *
 * @module
 */
import { PeerGone, type ProtocolError } from "./_errors.ts";
import type { Deadline } from "./_deadlines.ts";
import { createInput, type Input } from "./_input.ts";
import { LAST_ANSWER, writeResponse } from "./_response.ts";
import type { Conn, HttpLimits } from "./types.ts";

/** How the connection answers errors of its own (framing, limits, timeouts). */
export type ErrorAnswer = (status: number, message: string) => Response;

/**
 * What a connection is doing: waiting for a first or next request (`idle`),
 * reading a request's head or body from the peer (`receiving`), running the
 * handler with nothing asked of the peer (`handling`), writing an answer
 * (`sending`), or letting go after its last answer (`closing`).
 */
export type Phase = "idle" | "receiving" | "handling" | "sending" | "closing";

/** Where a connection stands, for its server. */
export interface Standing {
  /** What it is doing. */
  phase: Phase;
  /** When the request under way began to arrive (monotonic ms); the connection's opening before its first. */
  requestStarted: number;
  /** Bytes of the request under way received so far, head included. */
  requestBytes: number;
  /** When the connection began to wait on its peer for what it is waiting for now (monotonic ms). */
  waitingSince: number;
}

/** After an answer that closes the connection, unread bytes are dropped for at most this long and this much. */
const LINGER_MS = 2000;
/** What lingering drops at most. */
export const LINGER_BYTES = 1024 * 1024;

/** A connection's transport, deadlines and standing. */
export interface Link {
  /** The buffered input. */
  readonly input: Input;
  /** Where the connection stands. */
  readonly standing: Standing;
  /** Whether a deadline closed (or is closing) the connection. */
  readonly timedOut: boolean;
  /** Whether the connection is closed. */
  readonly closed: boolean;
  /** Resolves when the connection is closed. */
  readonly closedNow: Promise<void>;
  /** The peer's address. */
  readonly remoteAddr: string;
  /** Aborts the request under way when the connection closes (its `Request`'s signal). */
  inFlight: AbortController | null;
  /**
   * Waits for the first bytes of the next request (the first from the connection's opening, within
   * `headerTimeoutMs`; later ones within `idleTimeoutMs`), then times its head; false when the peer is gone.
   */
  awaitRequest(first: boolean): Promise<boolean>;
  /** Waits for more of a request head. */
  fillHead(): Promise<boolean>;
  /** The head is read: its deadline is lifted. */
  headRead(): void;
  /** Waits for more of a request body, under the body rate and whole-request deadlines. */
  fillBody(): Promise<boolean>;
  /** Writes bytes under the stall timer. */
  write(bytes: Uint8Array): Promise<void>;
  /** Writes one of the connection's own answers, as its last. */
  answer(status: number, message: string): Promise<boolean>;
  /** Answers a refusal, then lets go. */
  refuse(e: ProtocolError): Promise<void>;
  /** Ends the sending side, drops what the peer still sends (bounded), then closes. */
  linger(bytes?: number): Promise<void>;
  /** Closes now. */
  close(): void;
  /** Disarms the pending deadline. */
  disarm(): void;
}

/**
 * The link over `conn`.
 *
 * @example
 * ```ts ignore
 * const link = createLink(conn, limits, deadlines.create(), errorAnswer);
 * if (await link.awaitRequest(true)) await link.fillHead();
 * ```
 */
export function createLink(conn: Conn, limits: HttpLimits, deadline: Deadline, errorAnswer: ErrorAnswer): Link {
  const input = createInput(conn);
  const opened = performance.now();
  const standing: Standing = { phase: "idle", requestStarted: opened, requestBytes: 0, waitingSince: opened };
  let timedOut = false;
  let closed = false;
  let onClosed: () => void = () => {};
  const closedNow = new Promise<void>((r) => (onClosed = r));

  const close = () => {
    if (closed) return;
    closed = true;
    deadline.drop();
    link.inFlight?.abort();
    conn.close();
    onClosed();
  };
  /** Closes the connection unless disarmed within `ms`; `last` writes a final answer before. */
  // Once a deadline has fired, the connection is on its way out: nothing re-arms or lifts its last deadline.
  const arm = (ms: number, last: (() => Promise<unknown>) | null = null) => {
    if (timedOut) return;
    deadline.arm(ms, () => {
      timedOut = true;
      standing.phase = "closing";
      if (!last) return close();
      deadline.arm(1000, close);
      last().then(() => conn.closeWrite(), close);
    });
  };
  const disarm = () => {
    if (!timedOut) deadline.disarm();
  };
  const rawAnswer = (status: number, message: string) =>
    writeResponse((b) => conn.write(b), errorAnswer(status, message), LAST_ANSWER);
  const counted = async (): Promise<boolean> => {
    const before = input.pending;
    const more = await input.fill();
    if (more) standing.requestBytes += input.pending - before;
    return more;
  };
  // A connection a deadline is letting go stays "closing" whatever it is still doing.
  const enter = (phase: Phase) => {
    if (!timedOut) standing.phase = phase;
  };
  const wait = (phase: Phase) => {
    enter(phase);
    standing.waitingSince = performance.now();
  };

  const link: Link = {
    input,
    standing,
    get timedOut() {
      return timedOut;
    },
    get closed() {
      return closed;
    },
    closedNow,
    remoteAddr: conn.remoteAddr,
    inFlight: null,
    async awaitRequest(first) {
      const headTimeout = () =>
        rawAnswer(408, `the request head was not complete within ${limits.headerTimeoutMs / 1000} s`);
      if (input.pending === 0) {
        // A fresh connection is receiving its first request; a kept-alive one is idle until the next.
        wait(first ? "receiving" : "idle");
        arm(first ? limits.headerTimeoutMs : limits.idleTimeoutMs, first ? headTimeout : null);
        if (!(await counted())) return false;
      }
      wait("receiving");
      if (!first) {
        standing.requestStarted = performance.now();
        standing.requestBytes = input.pending;
        arm(limits.headerTimeoutMs, headTimeout);
      }
      return true;
    },
    async fillHead() {
      wait("receiving");
      return await counted() && !timedOut;
    },
    headRead() {
      disarm();
      enter("handling");
    },
    async fillBody() {
      wait("receiving");
      const now = performance.now();
      const byRate = standing.requestStarted + limits.bodyGraceMs +
        (standing.requestBytes / limits.minBodyRate) * 1000;
      const byWhole = standing.requestStarted + limits.requestTimeoutMs;
      const message = byRate < byWhole
        ? `the request body came slower than ${limits.minBodyRate} bytes a second`
        : `the request was not whole within ${limits.requestTimeoutMs / 1000} s`;
      arm(Math.max(0, Math.min(byRate, byWhole) - now), () => rawAnswer(408, message));
      try {
        const more = await counted();
        if (timedOut) throw new PeerGone(message, 408);
        return more;
      } finally {
        disarm();
        enter("handling");
      }
    },
    async write(bytes) {
      const was = standing.phase;
      wait(was === "closing" ? "closing" : "sending");
      arm(limits.stallTimeoutMs);
      try {
        await conn.write(bytes);
      } finally {
        disarm();
        enter(was === "closing" ? "closing" : "handling");
      }
    },
    answer: (status, message) => writeResponse(link.write, errorAnswer(status, message), LAST_ANSWER),
    refuse: (e) => link.answer(e.status, e.message).then(() => link.linger(), close),
    async linger(bytes = LINGER_BYTES) {
      wait("closing");
      conn.closeWrite();
      arm(LINGER_MS);
      let dropped = 0;
      while (dropped <= bytes && await input.fill()) {
        dropped += input.pending;
        input.skip(input.pending);
      }
      close();
    },
    close,
    disarm,
  };
  return link;
}
