/**
 * Writing a Web `Response` as HTTP/1.1: status line, fields, and the body
 * framed by its declared length, by its whole length when it is short, or in
 * chunks.
 *
 * @module
 */
import { bytesOf } from "./bytes_response.ts";

/** Where a response goes: a writer that applies the connection's stall timer. */
export type Write = (bytes: Uint8Array) => Promise<void>;

/** How a response is to be written. */
export interface WriteOptions {
  /** The request was HEAD: fields only. */
  head: boolean;
  /** Keep the connection open afterwards (else `connection: close`). */
  keepAlive: boolean;
  /** Minor version of the request: HTTP/1.0 peers get no chunked coding. */
  minor: 0 | 1;
  /** Seconds an idle kept-alive connection stays open, announced in `keep-alive`. */
  idleSeconds: number;
}

/** How the answers the connection gives itself are written: full, then the connection closes. */
export const LAST_ANSWER: Readonly<WriteOptions> = { head: false, keepAlive: false, minor: 1, idleSeconds: 0 };

const REASONS: Record<number, string> = {
  100: "Continue",
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  206: "Partial Content",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  505: "HTTP Version Not Supported",
  507: "Insufficient Storage",
};

// Fields the connection frames itself; a handler's values for them are not passed on.
const FRAMING = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "date", "upgrade"]);
/** Bodies up to this size are gathered and sent with their length rather than in chunks. */
const GATHER_BYTES = 64 * 1024;

const encoder = new TextEncoder();
let dateSecond = 0;
let dateText = "";

function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** The bytes of `text`, which is latin1 (status line and fields). */
function latin1(text: string): Uint8Array {
  return withBody(text, null);
}

/**
 * The bytes of the latin1 `text` followed by `body`'s, made in one array
 * (an array made is most of what writing a short answer costs).
 */
function withBody(text: string, body: Uint8Array | null): Uint8Array {
  const out = new Uint8Array(text.length + (body?.length ?? 0));
  // Plain ASCII, as fields nearly always are, is written natively; anything else byte by byte.
  const { read, written } = encoder.encodeInto(text, out);
  if (read !== text.length || written !== text.length) {
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  }
  if (body !== null) out.set(body, text.length);
  return out;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * The status line and fields of a response, with the connection's own
 * framing fields.
 *
 * @example
 * ```ts
 * import { responseHead } from "./_response.ts";
 * responseHead(404, new Headers({ "content-type": "application/json" }), { length: 2 }, { head: false, keepAlive: true, minor: 1, idleSeconds: 5 });
 * ```
 */
export function responseHead(
  status: number,
  headers: Headers,
  framing: Framing,
  options: WriteOptions,
): Uint8Array {
  return latin1(responseHeadText(status, headers, framing, options));
}

function responseHeadText(status: number, headers: Headers, framing: Framing, options: WriteOptions): string {
  let text = statusLines(status);
  for (const [name, value] of headers) {
    if (FRAMING.has(name)) continue;
    if (name === "set-cookie") {
      for (const cookie of headers.getSetCookie()) text += `set-cookie: ${cookie}\r\n`;
    } else {
      text += `${name}: ${value}\r\n`;
    }
  }
  return text + framingLines(framing, options);
}

/**
 * A whole answer from plain fields and body bytes: status line, fields,
 * the connection's framing fields, and the body unless it is a HEAD answer.
 *
 * @example
 * ```ts
 * import { plainAnswer } from "./_response.ts";
 * plainAnswer(200, [["content-type", "application/json"]], new Uint8Array([123, 125]), { head: false, keepAlive: true, minor: 1, idleSeconds: 5 });
 * ```
 */
export function plainAnswer(
  status: number,
  fields: readonly (readonly [string, string])[],
  body: Uint8Array,
  options: WriteOptions,
): Uint8Array {
  let text = statusLines(status);
  for (const [name, value] of fields) if (!FRAMING.has(name)) text += `${name}: ${value}\r\n`;
  const bodiless = status === 204 || status === 304 || status < 200;
  const head = text + framingLines(bodiless ? "none" : { length: body.length }, options);
  return withBody(head, options.head || bodiless ? null : body);
}

type Framing = { length: number } | "chunked" | "none" | "until-close";

function statusLines(status: number): string {
  return `HTTP/1.1 ${status} ${REASONS[status] ?? "Status"}\r\ndate: ${httpDate()}\r\n`;
}

function framingLines(framing: Framing, options: WriteOptions): string {
  let text = "";
  if (framing === "chunked") text += "transfer-encoding: chunked\r\n";
  else if (framing !== "none" && framing !== "until-close") text += `content-length: ${framing.length}\r\n`;
  text += options.keepAlive ? `keep-alive: timeout=${options.idleSeconds}\r\n` : "connection: close\r\n";
  return text + "\r\n";
}

/** The value of a `content-length` a handler set, when it is a plain integer. */
function declaredLength(headers: Headers): number | null {
  const value = headers.get("content-length");
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** A response body that produced more or fewer bytes than its `content-length`: the connection cannot go on. */
export class BodyLengthMismatch extends Error {}

/**
 * Writes `response` through `write`. Resolves with whether the connection
 * may stay open (false when the body had to be delimited by closing).
 * Rejects when writing fails; the body is cancelled then.
 */
export async function writeResponse(write: Write, response: Response, options: WriteOptions): Promise<boolean> {
  const { status, headers } = response;
  const bodiless = options.head || status === 204 || status === 304 || status < 200;
  const declared = declaredLength(headers);
  // Before `response.body`, which would make the stream this spares.
  const bytes = bodiless ? null : bytesOf(response);
  if (bytes !== null && (declared === null || declared === bytes.length)) {
    await write(withBody(responseHeadText(status, headers, { length: bytes.length }, options), bytes));
    return options.keepAlive;
  }
  const body = response.body;
  if (bodiless || body === null) {
    await body?.cancel().catch(() => {});
    const framing = bodiless ? (options.head && declared !== null ? { length: declared } : "none") : { length: 0 };
    await write(responseHead(status, headers, framing, options));
    return options.keepAlive;
  }
  // Every chunk is written before the next read: a byte stream's (a file's, a download's) reuse one buffer.
  const reader = reusingReader(body, declared === null);
  try {
    if (declared !== null) {
      await writeDeclared(write, reader, declared, responseHead(status, headers, { length: declared }, options));
      return options.keepAlive;
    }
    const gathered: Uint8Array[] = [];
    let size = 0;
    let ended = false;
    while (size <= GATHER_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      // Read on after it: kept as a copy when it lies in the reader's buffer, which the next read reuses.
      gathered.push(size + value.length <= GATHER_BYTES && reader.inRoom(value) ? value.slice() : value);
      size += value.length;
    }
    if (ended) {
      const whole = gathered.length === 1 ? gathered[0] : concat(gathered, size);
      await write(withBody(responseHeadText(status, headers, { length: size }, options), whole));
      return options.keepAlive;
    }
    if (options.minor === 0) {
      await write(
        withBody(
          responseHeadText(status, headers, "until-close", { ...options, keepAlive: false }),
          concat(gathered, size),
        ),
      );
      for (let r = await reader.read(); !r.done; r = await reader.read()) await write(r.value);
      return false;
    }
    await write(join(responseHead(status, headers, "chunked", options), chunk(concat(gathered, size))));
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (r.value.length === 0) continue;
      if (reader.inRoom(r.value)) await write(framedInPlace(r.value));
      else if (r.value.length > GATHER_BYTES) await writeChunk(write, r.value);
      else await write(chunk(r.value));
    }
    await write(LAST_CHUNK);
    return options.keepAlive;
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  }
}

const LAST_CHUNK = encoder.encode("0\r\n\r\n");
const CRLF = encoder.encode("\r\n");

/** A large chunk written as its size line, its bytes and its line end, without copying the bytes into one array. */
async function writeChunk(write: Write, bytes: Uint8Array): Promise<void> {
  await write(latin1(`${bytes.length.toString(16)}\r\n`));
  await write(bytes);
  await write(CRLF);
}

function chunk(bytes: Uint8Array): Uint8Array {
  const size = latin1(`${bytes.length.toString(16)}\r\n`);
  const out = new Uint8Array(size.length + bytes.length + 2);
  out.set(size);
  out.set(bytes, size.length);
  out[out.length - 2] = 13;
  out[out.length - 1] = 10;
  return out;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A reader of a body whose every chunk is written before the next is read. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
  /** Whether `value` (the last read) lies in the reader's own buffer, with room around it for a chunk's framing. */
  inRoom(value: Uint8Array): boolean;
}

/** The room a byte stream (a file's, a download's) is read into, again and again. */
const REUSED_BYTES = 256 * 1024;
/**
 * Room kept before a chunk read into it for its size line (hexadecimal digits
 * and CRLF), 16 bytes so that reads land aligned (a 16 MB download read 10
 * bytes into its buffer took 10% longer), and after it for CRLF.
 */
const SIZE_ROOM = 16;
const END_ROOM = 2;

/**
 * A reader of `body` for a writer that is done with each chunk before it
 * asks for the next: a byte stream (a file's, a download's) is read into
 * one buffer over and over (room left around each chunk for its framing
 * when `chunked`), so a download of gigabytes leaves no trail of buffers for the
 * garbage collector and is written one array a chunk; any other stream is
 * read chunk by chunk as it comes.
 */
function reusingReader(body: ReadableStream<Uint8Array>, chunked: boolean): ChunkReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    const reader = body.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel(), inRoom: () => false };
  }
  let room: ArrayBuffer = new ArrayBuffer(REUSED_BYTES);
  const [before, after] = chunked ? [SIZE_ROOM, END_ROOM] : [0, 0];
  return {
    async read() {
      const got = await byob.read(new Uint8Array(room, before, REUSED_BYTES - before - after));
      if (got.value) room = got.value.buffer as ArrayBuffer;
      return got.done ? { done: true, value: undefined } : { done: false, value: got.value };
    },
    cancel: () => byob.cancel(),
    inRoom: (value) => chunked && value.buffer === room && value.byteOffset === SIZE_ROOM,
  };
}

/** `value` (read by a {@linkcode reusingReader} into its room) framed as a chunk where it lies: its size line before, CRLF after. */
function framedInPlace(value: Uint8Array): Uint8Array {
  const size = latin1(`${value.length.toString(16)}\r\n`);
  const framed = new Uint8Array(value.buffer, value.byteOffset - size.length, size.length + value.length + END_ROOM);
  framed.set(size);
  framed[framed.length - 2] = 13;
  framed[framed.length - 1] = 10;
  return framed;
}

async function writeDeclared(
  write: Write,
  reader: ChunkReader,
  declared: number,
  head: Uint8Array,
): Promise<void> {
  let sent = 0;
  let pendingHead: Uint8Array | null = head;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    sent += value.length;
    if (sent > declared) throw new BodyLengthMismatch(`the body is longer than its content-length ${declared}`);
    if (pendingHead) {
      await write(value.length <= GATHER_BYTES ? join(pendingHead, value) : pendingHead);
      if (value.length > GATHER_BYTES) await write(value);
      pendingHead = null;
    } else {
      await write(value);
    }
  }
  if (pendingHead) await write(pendingHead);
  if (sent !== declared) throw new BodyLengthMismatch(`the body is shorter than its content-length ${declared}`);
}
