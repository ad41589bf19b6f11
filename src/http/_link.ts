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
 */
export function createLink(conn: Conn, limits: HttpLimits, deadline: Deadline, errorAnswer: ErrorAnswer): Link {
  const opened = performance.now();
  let onClosed: () => void = () => {};
  const closedNow = new Promise<void>((r) => (onClosed = r));
  const state: LinkState = {
    conn,
    limits,
    deadline,
    errorAnswer,
    input: createInput(conn),
    standing: { phase: "idle", requestStarted: opened, requestBytes: 0, waitingSince: opened },
    timedOut: false,
    closed: false,
    onClosed,
    inFlight: null,
  };
  const link: Link = {
    input: state.input,
    standing: state.standing,
    get timedOut() {
      return state.timedOut;
    },
    get closed() {
      return state.closed;
    },
    closedNow,
    remoteAddr: conn.remoteAddr,
    get inFlight() {
      return state.inFlight;
    },
    set inFlight(controller) {
      state.inFlight = controller;
    },
    awaitRequest: (first) => awaitRequest(state, first),
    fillHead: async () => {
      wait(state, "receiving");
      return await countedFill(state) && !state.timedOut;
    },
    headRead() {
      disarm(state);
      enter(state, "handling");
    },
    fillBody: () => fillBody(state),
    write: (bytes) => write(state, bytes),
    answer: (status, message) => writeResponse(link.write, errorAnswer(status, message), LAST_ANSWER),
    refuse: (e) => link.answer(e.status, e.message).then(() => linger(state), () => close(state)),
    linger: (bytes) => linger(state, bytes),
    close: () => close(state),
    disarm: () => disarm(state),
  };
  return link;
}

/** A connection's transport and where it stands, as the functions below share them. */
interface LinkState {
  readonly conn: Conn;
  readonly limits: HttpLimits;
  readonly deadline: Deadline;
  readonly errorAnswer: ErrorAnswer;
  readonly input: Input;
  readonly standing: Standing;
  timedOut: boolean;
  closed: boolean;
  readonly onClosed: () => void;
  inFlight: AbortController | null;
}

function close(s: LinkState): void {
  if (s.closed) return;
  s.closed = true;
  s.deadline.drop();
  s.inFlight?.abort();
  s.conn.close();
  s.onClosed();
}

/**
 * Closes the connection unless disarmed within `ms`; `last` writes a final
 * answer before (when it gives one). Once a deadline has fired, the
 * connection is on its way out: nothing re-arms or lifts its last deadline.
 */
function arm(
  s: LinkState,
  ms: number,
  last: (() => Promise<unknown> | null) | null = null,
  now?: number,
): void {
  if (s.timedOut) return;
  s.deadline.arm(ms, () => {
    s.timedOut = true;
    s.standing.phase = "closing";
    const answering = last?.() ?? null;
    if (answering === null) return close(s);
    s.deadline.arm(1000, () => close(s));
    answering.then(() => s.conn.closeWrite(), () => close(s));
  }, now);
}

function disarm(s: LinkState): void {
  if (!s.timedOut) s.deadline.disarm();
}

/** One of the connection's own answers, written past the stall timer (its deadline is already up). */
function rawAnswer(s: LinkState, status: number, message: string): Promise<boolean> {
  return writeResponse((b) => s.conn.write(b), s.errorAnswer(status, message), LAST_ANSWER);
}

/** Reads once more, counting what arrived as the request's. */
async function countedFill(s: LinkState): Promise<boolean> {
  const before = s.input.pending;
  const more = await s.input.fill();
  if (more) s.standing.requestBytes += s.input.pending - before;
  return more;
}

/** Marks what the connection does; one a deadline is letting go stays "closing" whatever it still does. */
function enter(s: LinkState, phase: Phase): void {
  if (!s.timedOut) s.standing.phase = phase;
}

/** Marks the connection waiting on its peer from now; answers the time it is (monotonic ms). */
function wait(s: LinkState, phase: Phase): number {
  enter(s, phase);
  return s.standing.waitingSince = performance.now();
}

async function awaitRequest(s: LinkState, first: boolean): Promise<boolean> {
  // A connection that sent nothing is closed without an answer: a client that opened it ahead of a request (as
  // pooling clients do) and sends one as the deadline falls would read a 408 as that request's answer.
  const headTimeout = () =>
    s.standing.requestBytes === 0
      ? null
      : rawAnswer(s, 408, `the request head was not complete within ${s.limits.headerTimeoutMs / 1000} s`);
  if (s.input.pending === 0) {
    // A fresh connection is receiving its first request; a kept-alive one is idle until the next.
    const now = wait(s, first ? "receiving" : "idle");
    arm(s, first ? s.limits.headerTimeoutMs : s.limits.idleTimeoutMs, first ? headTimeout : null, now);
    if (!(await countedFill(s))) return false;
  }
  const now = wait(s, "receiving");
  if (!first) {
    s.standing.requestStarted = now;
    s.standing.requestBytes = s.input.pending;
    arm(s, s.limits.headerTimeoutMs, headTimeout, now);
  }
  return true;
}

async function fillBody(s: LinkState): Promise<boolean> {
  wait(s, "receiving");
  const { limits, standing } = s;
  const now = performance.now();
  const byRate = standing.requestStarted + limits.bodyGraceMs + (standing.requestBytes / limits.minBodyRate) * 1000;
  const byWhole = standing.requestStarted + limits.requestTimeoutMs;
  const message = byRate < byWhole
    ? `the request body came slower than ${limits.minBodyRate} bytes a second`
    : `the request was not whole within ${limits.requestTimeoutMs / 1000} s`;
  arm(s, Math.max(0, Math.min(byRate, byWhole) - now), () => rawAnswer(s, 408, message));
  try {
    const more = await countedFill(s);
    if (s.timedOut) throw new PeerGone(message, 408);
    return more;
  } finally {
    disarm(s);
    enter(s, "handling");
  }
}

async function write(s: LinkState, bytes: Uint8Array): Promise<void> {
  const was = s.standing.phase;
  const now = wait(s, was === "closing" ? "closing" : "sending");
  arm(s, s.limits.stallTimeoutMs, null, now);
  try {
    await s.conn.write(bytes);
  } finally {
    disarm(s);
    enter(s, was === "closing" ? "closing" : "handling");
  }
}

async function linger(s: LinkState, bytes = LINGER_BYTES): Promise<void> {
  wait(s, "closing");
  s.conn.closeWrite();
  arm(s, LINGER_MS);
  let dropped = 0;
  while (dropped <= bytes && await s.input.fill()) {
    dropped += s.input.pending;
    s.input.skip(s.input.pending);
  }
  close(s);
}
