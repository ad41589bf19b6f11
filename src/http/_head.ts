/**
 * Parsing an HTTP/1.1 request head (request line and header fields), strictly:
 * anything a smuggling attempt or a confused peer could rely on (bare CR or LF,
 * folded lines, spaces before the colon, conflicting framing headers) is
 * refused rather than guessed at.
 *
 * @module
 */
import { ProtocolError } from "./_errors.ts";

/** A parsed request head. */
export interface RequestHead {
  /** Method, as sent (methods are case-sensitive). */
  method: string;
  /** The request target in origin form (`/path?query`), `*` for `OPTIONS *`. */
  target: string;
  /** The authority the request is for: the absolute-form target's, else `Host`. Null when neither exists. */
  authority: string | null;
  /** Minor version: 1 for HTTP/1.1, 0 for HTTP/1.0. */
  minor: 0 | 1;
  /** Header fields in order, names lowercased. */
  fields: [string, string][];
  /** Body framing: none, a declared length, or chunked. */
  body: { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" };
  /** Whether the client asked to keep the connection open after this exchange. */
  keepAlive: boolean;
  /**
   * Whether the client said this is its last request (`Connection: close`,
   * or HTTP/1.0 without `keep-alive`): bytes already sent after it are
   * refused, as llhttp refuses them.
   */
  closing: boolean;
  /**
   * Whether the client asked to switch protocols (`Upgrade` with
   * `Connection: upgrade`): the request is answered without switching, and
   * what follows it on the connection is not HTTP, so it is not read.
   */
  upgrade: boolean;
  /** Whether the client sent `Expect: 100-continue`. */
  expectContinue: boolean;
}

/** The preface an HTTP/2 client sends first with prior knowledge, up to its first blank line. */
export const H2_PREFACE_LINE = "PRI * HTTP/2.0";

/** The longest request line (method, target, version). */
const MAX_REQUEST_LINE = 8192;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * The methods Node's parser (llhttp) knows, which are all this server takes:
 * methods are case-sensitive, so `post` is not `POST` but an unknown method.
 */
const METHODS = new Set(
  ("ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR MKCOL MOVE " +
    "NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE " +
    "UNBIND UNLINK UNLOCK UNSUBSCRIBE").split(" "),
);
/** Methods a Web `Request` cannot carry: CONNECT tunnels, TRACE and TRACK echo credentials back. */
const NOT_SERVED = new Set(["CONNECT", "TRACE", "TRACK"]);
/**
 * Framing fields spelled with `_`: some proxies and gateways read them as
 * the framing field itself, so a peer could frame a request one way for
 * them and another way here.
 */
const FRAMING_LOOKALIKES = new Set(["content_length", "transfer_encoding"]);
/** Fields that may not come as trailers: they would reframe a body already read (RFC 9110 6.5.1). */
const FRAMING = new Set(["content-length", "transfer-encoding"]);
/** A Content-Length value as it follows the colon: optional leading whitespace, digits, trailing spaces only. */
const CONTENT_LENGTH = /^[ \t]*\d+ *$/;
// Field values: visible ASCII, space, tab and obs-text; no CR, LF, NUL or other controls.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// A request target: visible ASCII only (no space, no controls, no raw non-ASCII).
const TARGET = /^[\x21-\x7e]+$/;
// host = IP-literal / IPv4 / reg-name, then an optional port; no userinfo, no path.
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{0,5})?$/;

/** Whether `value` is an authority (`host[:port]`) as a Host header or absolute-form target may carry it. */
export function isAuthority(value: string): boolean {
  return value.length > 0 && value.length <= 261 && AUTHORITY.test(value);
}

function parseRequestLine(line: string): { method: string; rawTarget: string; minor: 0 | 1 } {
  const first = line.indexOf(" ");
  const last = line.lastIndexOf(" ");
  if (first <= 0 || last === first) throw new ProtocolError(400, "malformed request line");
  const method = line.slice(0, first);
  const rawTarget = line.slice(first + 1, last);
  const version = line.slice(last + 1);
  if (!TOKEN.test(method)) throw new ProtocolError(400, "malformed request line: bad method");
  if (!METHODS.has(method)) {
    throw new ProtocolError(
      400,
      `malformed request line: unknown method ${method.slice(0, 20)} (methods are case-sensitive)`,
    );
  }
  if (NOT_SERVED.has(method)) throw new ProtocolError(501, `${method} is not served here`);
  if (!TARGET.test(rawTarget)) throw new ProtocolError(400, "malformed request line: bad request target");
  if (version === "HTTP/1.1") return { method, rawTarget, minor: 1 };
  if (version === "HTTP/1.0") return { method, rawTarget, minor: 0 };
  if (/^HTTP\/\d\.\d$/.test(version)) throw new ProtocolError(505, `${version} is not supported: use HTTP/1.1`);
  throw new ProtocolError(400, "malformed request line: bad version");
}

/** Splits an absolute-form target into its authority and origin-form path. */
function absoluteForm(rawTarget: string): { authority: string; target: string } {
  const m = /^http:\/\/([^/?#]*)([/?][^#]*)?$/i.exec(rawTarget);
  if (!m) throw new ProtocolError(400, "malformed request target: only http:// absolute URLs are taken");
  if (!isAuthority(m[1])) throw new ProtocolError(400, "malformed request target: bad authority");
  const rest = m[2] ?? "/";
  return { authority: m[1], target: rest.startsWith("?") ? `/${rest}` : rest };
}

function singleField(fields: [string, string][], name: string): string | null {
  let found: string | null = null;
  for (const [n, v] of fields) {
    if (n !== name) continue;
    if (found !== null) throw new ProtocolError(400, `more than one ${name} header`);
    found = v;
  }
  return found;
}

function connectionTokens(fields: [string, string][]): Set<string> {
  const tokens = new Set<string>();
  for (const [n, v] of fields) {
    if (n === "connection") { for (const t of v.split(",")) tokens.add(t.trim().toLowerCase()); }
  }
  return tokens;
}

function bodyFraming(fields: [string, string][], minor: 0 | 1): RequestHead["body"] {
  const te = fields.filter(([n]) => n === "transfer-encoding").map(([, v]) => v.trim().toLowerCase());
  const length = singleField(fields, "content-length");
  if (te.length > 0) {
    if (length !== null) throw new ProtocolError(400, "Content-Length and Transfer-Encoding together are refused");
    if (minor === 0) throw new ProtocolError(400, "Transfer-Encoding is not allowed in HTTP/1.0");
    if (te.length !== 1 || te[0] !== "chunked") {
      throw new ProtocolError(501, "only Transfer-Encoding: chunked is supported");
    }
    return { kind: "chunked" };
  }
  if (length === null) return { kind: "none" };
  if (!/^\d{1,15}$/.test(length)) {
    throw new ProtocolError(400, "Content-Length must be a non-negative integer");
  }
  const n = Number(length);
  return n === 0 ? { kind: "none" } : { kind: "length", length: n };
}

/**
 * Parses one header or trailer field line (no CR or LF in it): its name in
 * lower case and its value without surrounding whitespace. Folded lines,
 * spaces before the colon, a bad name or a control character in the value
 * are refused with 400.
 *
 * @example
 * ```ts
 * import { parseField } from "./_head.ts";
 * parseField("X-Trace: a b ", "trailer"); // ["x-trace", "a b"]
 * ```
 */
export function parseField(line: string, kind: "header" | "trailer"): [string, string] {
  const colon = line.indexOf(":");
  if (colon <= 0) {
    const folded = line.startsWith(" ") || line.startsWith("\t");
    throw new ProtocolError(400, folded ? `folded ${kind} lines are refused` : `malformed ${kind} line`);
  }
  const name = line.slice(0, colon);
  if (!TOKEN.test(name)) throw new ProtocolError(400, `malformed ${kind} name`);
  const raw = line.slice(colon + 1);
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, "");
  if (!FIELD_VALUE.test(value)) throw new ProtocolError(400, `bad character in the ${name} ${kind}`);
  const lower = name.toLowerCase();
  if (FRAMING_LOOKALIKES.has(lower)) throw new ProtocolError(400, `a ${name} ${kind} is refused: it reads as framing`);
  if (kind === "trailer" && FRAMING.has(lower)) throw new ProtocolError(400, `${name} may not come as a trailer`);
  if (lower === "content-length" && !CONTENT_LENGTH.test(raw)) {
    throw new ProtocolError(400, "Content-Length must be a non-negative integer");
  }
  return [lower, value];
}

/**
 * Parses the head `text` (latin1-decoded, without the final blank line).
 * Throws a {@linkcode ProtocolError} with the status to answer.
 *
 * @example
 * ```ts
 * import { parseHead } from "./_head.ts";
 * parseHead("GET /projects HTTP/1.1\r\nHost: 127.0.0.1:8686").authority; // "127.0.0.1:8686"
 * ```
 */
export function parseHead(text: string): RequestHead {
  const lines = text.split("\r\n");
  const requestLine = lines[0];
  if (requestLine.length > MAX_REQUEST_LINE) {
    throw new ProtocolError(414, `the request line is over ${MAX_REQUEST_LINE} bytes`);
  }
  if (/[\r\n]/.test(text.replace(/\r\n/g, ""))) throw new ProtocolError(400, "bare CR or LF in the request head");
  const { method, rawTarget, minor } = parseRequestLine(requestLine);
  if (lines.length > 101) throw new ProtocolError(431, "too many header fields (the limit is 100)");
  const fields: [string, string][] = [];
  for (let i = 1; i < lines.length; i++) fields.push(parseField(lines[i], "header"));
  const host = singleField(fields, "host");
  if (host !== null && !isAuthority(host)) throw new ProtocolError(400, "malformed Host header");
  let authority = host;
  let target = rawTarget;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rawTarget)) {
    ({ authority, target } = absoluteForm(rawTarget));
  } else if (rawTarget === "*") {
    if (method !== "OPTIONS") throw new ProtocolError(400, "the target * is only for OPTIONS");
  } else if (!rawTarget.startsWith("/")) {
    throw new ProtocolError(400, "malformed request target: it must start with /");
  }
  if (minor === 1 && host === null) throw new ProtocolError(400, "HTTP/1.1 requests need a Host header");
  const tokens = connectionTokens(fields);
  const expect = singleField(fields, "expect");
  if (expect !== null && expect.toLowerCase() !== "100-continue") {
    throw new ProtocolError(417, `Expect: ${expect.slice(0, 40)} is not supported`);
  }
  return {
    method,
    target,
    authority,
    minor,
    fields,
    body: bodyFraming(fields, minor),
    keepAlive: minor === 1 ? !tokens.has("close") : tokens.has("keep-alive") && !tokens.has("close"),
    closing: tokens.has("close") || (minor === 0 && !tokens.has("keep-alive")),
    upgrade: tokens.has("upgrade") && fields.some(([name]) => name === "upgrade"),
    expectContinue: expect !== null && minor === 1,
  };
}
