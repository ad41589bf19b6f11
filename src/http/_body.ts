/**
 * Request bodies as the connection reads them: a declared length or chunked
 * transfer coding, taken from the connection's input as the handler pulls.
 *
 * @module
 */
import { PeerGone, ProtocolError } from "./_errors.ts";
import type { Input } from "./_input.ts";
import type { RequestHead } from "./_head.ts";

/** A request body being read. */
export interface BodyReader {
  /** The next bytes of the body, or null at its end. Throws {@linkcode ProtocolError} or {@linkcode PeerGone}. */
  next(): Promise<Uint8Array | null>;
  /** Whether the whole body has been read. */
  readonly done: boolean;
  /** Bytes still to come when the length is declared; null for chunked bodies. */
  readonly remaining: number | null;
}

const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 8192;
const EARLY_END = "the connection ended inside the request body";

/**
 * A reader of the body framed by `head`, pulling from `input` through `fill`
 * (which the connection wraps in its stall timer).
 *
 * @example
 * ```ts ignore
 * const body = bodyReader(head.body, input, () => input.fill());
 * for (let c = await body.next(); c; c = await body.next()) use(c);
 * ```
 */
export function bodyReader(framing: RequestHead["body"], input: Input, fill: () => Promise<boolean>): BodyReader {
  if (framing.kind === "none") return { next: () => Promise.resolve(null), done: true, remaining: 0 };
  if (framing.kind === "length") return lengthReader(framing.length, input, fill);
  return chunkedReader(input, fill);
}

function lengthReader(length: number, input: Input, fill: () => Promise<boolean>): BodyReader {
  let left = length;
  return {
    get done() {
      return left === 0;
    },
    get remaining() {
      return left;
    },
    async next() {
      if (left === 0) return null;
      if (input.pending === 0 && !(await fill())) throw new PeerGone(EARLY_END);
      const bytes = input.take(left);
      left -= bytes.length;
      return bytes;
    },
  };
}

function chunkedReader(input: Input, fill: () => Promise<boolean>): BodyReader {
  let state: "size" | "data" | "crlf" | "trailers" | "done" = "size";
  let chunkLeft = 0;
  let trailerBytes = 0;
  const line = async (limit: number): Promise<string> => {
    let end: number;
    while ((end = input.lineEnd(0)) < 0) {
      if (input.pending > limit) throw new ProtocolError(400, "malformed chunked body: line too long");
      if (!(await fill())) throw new PeerGone(EARLY_END);
    }
    if (end > limit) throw new ProtocolError(400, "malformed chunked body: line too long");
    const text = String.fromCharCode(...input.take(end));
    input.skip(2);
    return text;
  };
  return {
    get done() {
      return state === "done";
    },
    remaining: null,
    async next() {
      while (true) {
        if (state === "done") return null;
        if (state === "size") {
          const m = /^([0-9A-Fa-f]{1,12})[ \t]*(;[\x20-\x7e\t]*)?$/.exec(await line(MAX_CHUNK_LINE));
          if (!m) throw new ProtocolError(400, "malformed chunked body: bad chunk size");
          chunkLeft = parseInt(m[1], 16);
          state = chunkLeft === 0 ? "trailers" : "data";
        } else if (state === "data") {
          if (input.pending === 0 && !(await fill())) throw new PeerGone(EARLY_END);
          const bytes = input.take(chunkLeft);
          chunkLeft -= bytes.length;
          if (chunkLeft === 0) state = "crlf";
          return bytes;
        } else if (state === "crlf") {
          while (input.pending < 2) if (!(await fill())) throw new PeerGone(EARLY_END);
          const [cr, lf] = input.take(2);
          if (cr !== 13 || lf !== 10) throw new ProtocolError(400, "malformed chunked body: no CRLF after a chunk");
          state = "size";
        } else {
          const trailer = await line(MAX_TRAILERS);
          trailerBytes += trailer.length + 2;
          if (trailerBytes > MAX_TRAILERS) throw new ProtocolError(431, "request trailers are too large");
          if (trailer === "") state = "done";
        }
      }
    },
  };
}
