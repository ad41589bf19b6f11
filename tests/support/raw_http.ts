/**
 * Raw HTTP/1.1 over a socket, for requests a `fetch` client would normalise
 * away (bad Host, negative Content-Length, ...).
 *
 * @module
 */
import { connect } from "node:net";

/** A parsed raw answer. */
export interface RawResponse {
  /** Status code, or 0 when the server closed without answering. */
  status: number;
  /** Header names lowercased. */
  headers: Record<string, string>;
  /** The body as text (chunked bodies are not decoded). */
  body: string;
  /** Everything the server sent. */
  raw: string;
}

/**
 * Sends `request` (exact bytes) to `port` on 127.0.0.1 and reads until the
 * server closes or `timeoutMs` passes.
 */
export function rawRequest(port: number, request: string | Uint8Array, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Uint8Array[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d: Uint8Array) => {
      chunks.push(d);
      const text = new TextDecoder().decode(concat(chunks));
      const parsed = parse(text);
      const length = Number(parsed.headers["content-length"] ?? NaN);
      if (parsed.status && Number.isFinite(length) && new TextEncoder().encode(parsed.body).length >= length) {
        socket.end();
      }
    });
    socket.on("error", (e) => {
      clearTimeout(timer);
      if (chunks.length) resolve(parse(new TextDecoder().decode(concat(chunks))));
      else reject(e);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parse(new TextDecoder().decode(concat(chunks))));
    });
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function parse(raw: string): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: "", raw };
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { status, headers, body: raw.slice(end + 4), raw };
}

/** A raw client socket kept open, for tests of what the server does to connections over time. */
export interface OpenSocket {
  /** Sends bytes; false when the socket is gone. */
  send(bytes: string | Uint8Array): boolean;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Bytes received so far. */
  bytes(): number;
  /** Resolves with the milliseconds since opening when the server ends or resets the connection. */
  closed: Promise<number>;
  /** Whether the connection has ended. */
  isClosed(): boolean;
  /** Resolves once `text` has been received (or rejects after `ms`). */
  waitFor(text: string, ms?: number): Promise<void>;
  /** Closes it from this side. */
  destroy(): void;
}

/** Opens a connection to `port` on 127.0.0.1 and resolves once connected. */
export function openSocket(port: number, options: { read?: boolean } = {}): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let text = "";
    let count = 0;
    let ended = false;
    let onEnd: (ms: number) => void = () => {};
    const closed = new Promise<number>((r) => (onEnd = r));
    const end = () => {
      if (ended) return;
      ended = true;
      onEnd(Date.now() - started);
    };
    if (options.read === false) socket.pause();
    socket.on("data", (d: Uint8Array) => {
      count += d.length;
      text += String.fromCharCode(...d);
    });
    socket.on("end", end);
    socket.on("close", end);
    let connected = false;
    socket.on("error", () => {
      end();
      if (!connected) reject(new Error("cannot connect"));
    });
    socket.on("connect", () => {
      connected = true;
      resolve({
        send: (bytes) => !socket.destroyed && socket.write(bytes),
        received: () => text,
        bytes: () => count,
        closed,
        isClosed: () => ended,
        async waitFor(want, ms = 5000) {
          const deadline = Date.now() + ms;
          while (!text.includes(want)) {
            if (Date.now() > deadline) {
              throw new Error(`never received ${JSON.stringify(want)}; got ${JSON.stringify(text.slice(0, 300))}`);
            }
            await new Promise((r) => setTimeout(r, 10));
          }
        },
        destroy: () => socket.destroy(),
      });
    });
  });
}
