/**
 * Request bodies as the connection reads them: a declared length or chunked
 * transfer coding, taken from the connection's input as the handler pulls.
 *
 * @module
 */
import { PeerGone, ProtocolError } from "./_errors.ts";
import type { Input } from "./_input.ts";
import { parseField, type RequestHead } from "./_head.ts";

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

/** A chunk-size line: hex digits, then extensions (`;name` or `;name=token` or `;name="quoted"`), no whitespace. */
const CHUNK_LINE =
  /^([0-9A-Fa-f]+)((?:;[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:=(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"))?)*)$/;
/** The largest chunk taken: 2^48 - 1 bytes, twelve hex digits once leading zeros are dropped. */
const MAX_CHUNK_DIGITS = 12;

function chunkedReader(input: Input, fill: () => Promise<boolean>): BodyReader {
  let state: "size" | "data" | "crlf" | "trailers" | "done" = "size";
  let chunkLeft = 0;
  let trailerBytes = 0;
  /** The next line without its CRLF; a bare LF, or a CR not before LF, is refused as soon as it is seen. */
  const line = async (limit: number): Promise<string> => {
    let scanned = 0;
    while (true) {
      const bytes = input.peek(input.pending);
      for (; scanned < bytes.length; scanned++) {
        const b = bytes[scanned];
        if (b === 10) {
          if (scanned === 0 || bytes[scanned - 1] !== 13) {
            throw new ProtocolError(400, "malformed chunked body: a line ends in a bare LF");
          }
          if (scanned - 1 > limit) throw new ProtocolError(400, "malformed chunked body: line too long");
          const text = String.fromCharCode(...input.take(scanned - 1));
          input.skip(2);
          return text;
        }
        if (scanned > 0 && bytes[scanned - 1] === 13) {
          throw new ProtocolError(400, "malformed chunked body: a bare CR");
        }
      }
      if (input.pending > limit + 2) throw new ProtocolError(400, "malformed chunked body: line too long");
      if (!(await fill())) throw new PeerGone(EARLY_END);
    }
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
          const m = CHUNK_LINE.exec(await line(MAX_CHUNK_LINE));
          const digits = m?.[1].replace(/^0+(?=.)/, "");
          if (!m || digits!.length > MAX_CHUNK_DIGITS) {
            throw new ProtocolError(400, "malformed chunked body: bad chunk size");
          }
          chunkLeft = parseInt(digits!, 16);
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
          else parseField(trailer, "trailer");
        }
      }
    },
  };
}
