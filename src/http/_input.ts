/**
 * The bytes a connection has received and not yet parsed, with reads that
 * fill it. Request heads are found in it; bodies are taken from it.
 *
 * @module
 */
import type { Conn } from "./types.ts";

const EMPTY = new Uint8Array(0);
const HEAD_END = [13, 10, 13, 10] as const;
const LINE_END = [13, 10] as const;

/** Buffered input of one connection. */
export interface Input {
  /** Bytes received and not yet taken. */
  readonly pending: number;
  /** Reads once more from the connection; false when nothing more will come. */
  fill(): Promise<boolean>;
  /** The index of `\r\n\r\n` in the pending bytes at or after `from`, or -1. */
  headEnd(from: number): number;
  /** The index of `\r\n` in the pending bytes at or after `from`, or -1. */
  lineEnd(from: number): number;
  /** Takes up to `n` pending bytes (fewer when fewer are pending). */
  take(n: number): Uint8Array;
  /** Drops `n` pending bytes. */
  skip(n: number): void;
  /** The first pending bytes, up to `n`, without taking them. */
  peek(n: number): Uint8Array;
}

/**
 * Input over `conn`.
 */
export function createInput(conn: Conn): Input {
  let buf: Uint8Array = EMPTY;
  let start = 0;
  let ended = false;
  const find = (from: number, pattern: readonly number[]): number => {
    const last = buf.length - pattern.length;
    for (let i = buf.indexOf(pattern[0], start + from); i >= 0 && i <= last; i = buf.indexOf(pattern[0], i + 1)) {
      let k = 1;
      while (k < pattern.length && buf[i + k] === pattern[k]) k++;
      if (k === pattern.length) return i - start;
    }
    return -1;
  };
  return {
    get pending() {
      return buf.length - start;
    },
    async fill() {
      if (ended) return false;
      const chunk = await conn.read();
      if (chunk === null) {
        ended = true;
        return false;
      }
      if (start === buf.length) {
        buf = chunk;
      } else {
        const joined = new Uint8Array(buf.length - start + chunk.length);
        joined.set(buf.subarray(start));
        joined.set(chunk, buf.length - start);
        buf = joined;
      }
      start = 0;
      return true;
    },
    headEnd: (from) => find(Math.max(0, from), HEAD_END),
    lineEnd: (from) => find(Math.max(0, from), LINE_END),
    take(n) {
      const end = Math.min(buf.length, start + n);
      const out = buf.subarray(start, end);
      start = end;
      return out;
    },
    skip(n) {
      start = Math.min(buf.length, start + n);
    },
    peek: (n) => buf.subarray(start, Math.min(buf.length, start + n)),
  };
}
