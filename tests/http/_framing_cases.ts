/**
 * Request framing cases, each sent as raw bytes to this server and to
 * Node's (llhttp) for their verdicts to be compared. Where this server is
 * deliberately stricter than llhttp, or answers otherwise, the case says so
 * and why; every other case must get the same verdict from both.
 *
 * @module
 */

/** One case. */
export interface FramingCase {
  /** What it tries. */
  name: string;
  /** The bytes, as latin1 text. */
  bytes: string;
  /** Why this server refuses what llhttp takes; absent when both must agree. */
  stricter?: string;
  /** Why this server answers otherwise than Node's server (neither refusing it as framing). */
  differs?: string;
}

const R = (line: string, headers: string[] = [], body = "") =>
  `${line}\r\n${["Host: a", ...headers].map((h) => h + "\r\n").join("")}\r\n${body}`;
const P = (headers: string[], body: string) => R("POST /p HTTP/1.1", headers, body);
const C = (body: string) => P(["Transfer-Encoding: chunked"], body);

/** Every case. */
export const FRAMING_CASES: FramingCase[] = [
  { name: "plain GET", bytes: R("GET / HTTP/1.1") },
  { name: "lowercase method", bytes: R("get / HTTP/1.1") },
  { name: "mixed-case method", bytes: R("Post /p HTTP/1.1", ["Content-Length: 0"]) },
  { name: "unknown method", bytes: R("FOO / HTTP/1.1") },
  { name: "WebDAV method", bytes: R("PROPFIND / HTTP/1.1") },
  { name: "M-SEARCH", bytes: R("M-SEARCH /m HTTP/1.1") },
  { name: "TRACE", bytes: R("TRACE / HTTP/1.1"), stricter: "TRACE echoes credentials back (XST); 501" },
  { name: "CONNECT", bytes: "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n" },
  {
    name: "two spaces after method",
    bytes: R("GET  / HTTP/1.1"),
    stricter: "RFC 9112 3: the request line is method SP target SP version",
  },
  { name: "tab after method", bytes: R("GET\t/ HTTP/1.1") },
  { name: "trailing space in request line", bytes: R("GET / HTTP/1.1 ") },
  // Served as a request for the address the node is bound to (health checkers send these; browsers never do).
  { name: "HTTP/1.0 without Host", bytes: "GET / HTTP/1.0\r\n\r\n" },
  { name: "HTTP/2.0 version", bytes: R("GET / HTTP/2.0"), stricter: "HTTP/2 is not spoken on this port; 505" },
  { name: "HTTP/1.2 version", bytes: R("GET / HTTP/1.2") },
  { name: "lowercase version", bytes: R("GET / http/1.1") },
  { name: "no version", bytes: "GET /\r\nHost: a\r\n\r\n", stricter: "HTTP/0.9 is not served" },
  { name: "backslash target", bytes: R("GET /a\\b HTTP/1.1") },
  { name: "dot segments target", bytes: R("GET /a/../b/./c HTTP/1.1") },
  { name: "encoded dot segments", bytes: R("GET /a/%2e%2e/b HTTP/1.1") },
  { name: "quote in target", bytes: R('GET /a"b HTTP/1.1') },
  { name: "angle brackets in target", bytes: R("GET /a<b> HTTP/1.1") },
  { name: "pipe and braces in target", bytes: R("GET /a|{b} HTTP/1.1") },
  { name: "DEL in target", bytes: R("GET /a\x7fb HTTP/1.1") },
  { name: "obs-text in target", bytes: R("GET /a\xffb HTTP/1.1") },
  { name: "NUL in target", bytes: R("GET /a\x00b HTTP/1.1") },
  { name: "asterisk for OPTIONS", bytes: R("OPTIONS * HTTP/1.1") },
  { name: "leading CRLF", bytes: "\r\n" + R("GET / HTTP/1.1") },
  {
    name: "leading bare LF",
    bytes: "\n" + R("GET / HTTP/1.1"),
    stricter: "a bare LF is refused everywhere; RFC 9112 2.2 asks servers to skip an empty CRLF line only",
  },
  { name: "bare LF line ends", bytes: "GET / HTTP/1.1\nHost: a\n\n" },
  { name: "bare CR in request line", bytes: "GET / HTTP/1.1\rHost: a\r\n\r\n" },
  { name: "bare LF after a field", bytes: "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n" },
  { name: "no Host in HTTP/1.1", bytes: "GET / HTTP/1.1\r\n\r\n" },
  {
    name: "two Host fields",
    bytes: R("GET / HTTP/1.1", ["Host: a"]),
    stricter: "RFC 9112 3.2: a request with more than one Host field is answered 400",
  },
  { name: "space before colon", bytes: R("GET / HTTP/1.1", ["X-A : b"]) },
  { name: "tab before colon", bytes: R("GET / HTTP/1.1", ["X-A\t: b"]) },
  { name: "empty field name", bytes: R("GET / HTTP/1.1", [": b"]) },
  { name: "bad char in field name", bytes: R("GET / HTTP/1.1", ["X(A): b"]) },
  { name: "obs-fold", bytes: R("GET / HTTP/1.1", ["X-A: b", " c"]) },
  { name: "line without colon", bytes: R("GET / HTTP/1.1", ["X-A b"]) },
  { name: "NUL in field value", bytes: R("GET / HTTP/1.1", ["X-A: b\x00c"]) },
  { name: "DEL in field value", bytes: R("GET / HTTP/1.1", ["X-A: b\x7fc"]) },
  { name: "obs-text in field value", bytes: R("GET / HTTP/1.1", ["X-A: b\xe9c"]) },
  { name: "tab in field value", bytes: R("GET / HTTP/1.1", ["X-A: b\tc"]) },
  { name: "Content-Length body", bytes: P(["Content-Length: 5"], "hello") },
  { name: "Content-Length zero", bytes: P(["Content-Length: 0"], "") },
  { name: "Content-Length with trailing space", bytes: P(["Content-Length: 5 "], "hello") },
  { name: "Content-Length with trailing tab", bytes: P(["Content-Length: 5\t"], "hello") },
  { name: "Content-Length with leading tab", bytes: P(["Content-Length:\t5"], "hello") },
  { name: "Content-Length with plus", bytes: P(["Content-Length: +5"], "hello") },
  { name: "Content-Length negative", bytes: P(["Content-Length: -5"], "hello") },
  { name: "Content-Length hex", bytes: P(["Content-Length: 0x5"], "hello") },
  { name: "Content-Length with inner space", bytes: P(["Content-Length: 5 5"], "hello") },
  { name: "Content-Length list", bytes: P(["Content-Length: 5, 5"], "hello") },
  { name: "Content-Length twice, same", bytes: P(["Content-Length: 5", "Content-Length: 5"], "hello") },
  { name: "Content-Length twice, differing", bytes: P(["Content-Length: 5", "Content-Length: 6"], "hello!") },
  { name: "Content-Length empty", bytes: P(["Content-Length: "], "") },
  { name: "Content-Length leading zeros", bytes: P(["Content-Length: 005"], "hello") },
  {
    name: "Content-Length and chunked",
    bytes: P(["Content-Length: 5", "Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\n\r\n"),
  },
  {
    name: "Transfer_Encoding beside Content-Length",
    bytes: P(["Content-Length: 5", "Transfer_Encoding: chunked"], "5\r\nhello\r\n0\r\n\r\n"),
  },
  {
    name: "Transfer_Encoding beside Content-Length, a plain body",
    bytes: P(["Content-Length: 5", "Transfer_Encoding: chunked"], "hello"),
    stricter: "a framing field spelled with _ is refused: gateways that read _ as - would frame the body otherwise",
  },
  { name: "chunked", bytes: C("5\r\nhello\r\n0\r\n\r\n") },
  { name: "chunked uppercase hex", bytes: C("A\r\nhelloworld\r\n0\r\n\r\n") },
  { name: "chunked, coding in capitals", bytes: P(["Transfer-Encoding: Chunked"], "5\r\nhello\r\n0\r\n\r\n") },
  {
    name: "gzip, chunked",
    bytes: P(["Transfer-Encoding: gzip, chunked"], "5\r\nhello\r\n0\r\n\r\n"),
    stricter: "no coding but chunked is decoded, so a gzip body would reach handlers as is; 501",
  },
  { name: "chunked, gzip", bytes: P(["Transfer-Encoding: chunked, gzip"], "hello") },
  { name: "chunked twice in one field", bytes: P(["Transfer-Encoding: chunked, chunked"], "5\r\nhello\r\n0\r\n\r\n") },
  {
    name: "Transfer-Encoding twice",
    bytes: P(["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\n\r\n"),
  },
  { name: "Transfer-Encoding: identity", bytes: P(["Transfer-Encoding: identity"], "") },
  {
    name: "chunked in HTTP/1.0",
    bytes: "POST /p HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    stricter: "RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 message means faulty framing",
  },
  { name: "chunk size with trailing space", bytes: C("5 \r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size with trailing tab", bytes: C("5\t\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size with leading space", bytes: C(" 5\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk extension", bytes: C("5;a=b\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk extension without value", bytes: C("5;a\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk extension quoted", bytes: C('5;a="b c"\r\nhello\r\n0\r\n\r\n') },
  { name: "two chunk extensions", bytes: C("5;a=b;c=d\r\nhello\r\n0\r\n\r\n") },
  { name: "space before chunk extension", bytes: C("5 ;a=b\r\nhello\r\n0\r\n\r\n") },
  { name: "space after semicolon", bytes: C("5; a=b\r\nhello\r\n0\r\n\r\n") },
  { name: "empty chunk extension", bytes: C("5;\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk extension with bad char", bytes: C("5;a=b@c\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size not hex", bytes: C("5g\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size 0x prefix", bytes: C("0x5\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size with leading zeros", bytes: C("00000000000000000005\r\nhello\r\n0\r\n\r\n") },
  { name: "chunk size with bare LF", bytes: C("5\nhello\r\n0\r\n\r\n") },
  { name: "chunk data without CRLF", bytes: C("5\r\nhelloX0\r\n\r\n") },
  { name: "chunk data with bare LF", bytes: C("5\r\nhello\n0\r\n\r\n") },
  { name: "last chunk with bare LF", bytes: C("5\r\nhello\r\n0\n\r\n") },
  { name: "trailer field", bytes: C("5\r\nhello\r\n0\r\nX-T: v\r\n\r\n") },
  { name: "two trailer fields", bytes: C("5\r\nhello\r\n0\r\nX-T: v\r\nX-U: w\r\n\r\n") },
  {
    name: "trailer ending in bare LF, then two requests",
    bytes: C("0\r\nX: a\n\r\n") + R("GET /two HTTP/1.1") + R("GET /three HTTP/1.1"),
  },
  { name: "Content-Length in a chunked trailer", bytes: C("5\r\nhello\r\n0\r\nContent-Length: 5\r\n\r\n") },
  { name: "Transfer-Encoding in a chunked trailer", bytes: C("5\r\nhello\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n") },
  { name: "trailer without colon", bytes: C("0\r\nX a\r\n\r\n") },
  { name: "trailer with NUL", bytes: C("0\r\nX: a\x00b\r\n\r\n") },
  { name: "trailer with bare CR", bytes: C("0\r\nX: a\rb\r\n\r\n") },
  { name: "folded trailer", bytes: C("0\r\nX: a\r\n b\r\n\r\n") },
  { name: "request line as trailer", bytes: C("0\r\nGET /two HTTP/1.1\r\nHost: a\r\n\r\n") },
  { name: "space before trailer colon", bytes: C("0\r\nX : a\r\n\r\n") },
  { name: "end of body with bare LF", bytes: C("0\r\n\n") },
  { name: "two requests pipelined", bytes: R("GET /one HTTP/1.1") + R("GET /two HTTP/1.1") },
  { name: "body then pipelined request", bytes: P(["Content-Length: 5"], "hello") + R("GET /two HTTP/1.1") },
  { name: "chunked then pipelined request", bytes: C("5\r\nhello\r\n0\r\n\r\n") + R("GET /two HTTP/1.1") },
  // A request that says it is the last: bytes already sent after it are refused, as llhttp refuses them.
  {
    name: "close then pipelined request",
    bytes: R("GET /one HTTP/1.1", ["Connection: close"]) + R("GET /two HTTP/1.1"),
  },
  {
    name: "close with a body, then pipelined request",
    bytes: P(["Connection: close", "Content-Length: 5"], "hello") + R("GET /two HTTP/1.1"),
  },
  {
    name: "close with a chunked body, then pipelined request",
    bytes: P(["Connection: close", "Transfer-Encoding: chunked"], "5\r\nhello\r\n0\r\n\r\n") + R("GET /two HTTP/1.1"),
  },
  { name: "close then a blank line", bytes: R("GET /one HTTP/1.1", ["Connection: close"]) + "\r\n" },
  { name: "HTTP/1.0 then pipelined request", bytes: "GET /one HTTP/1.0\r\n\r\nGET /two HTTP/1.0\r\n\r\n" },
  // An HTTP/1.0 connection carries one request, kept alive or not: what follows goes unread.
  {
    name: "HTTP/1.0 keep-alive, then pipelined request",
    bytes: "GET /one HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /two HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
  },
  { name: "Expect: 100-continue", bytes: P(["Content-Length: 5", "Expect: 100-continue"], "hello") },
  { name: "Expect: something else", bytes: P(["Content-Length: 5", "Expect: teapot"], "hello") },
  { name: "Upgrade: websocket", bytes: R("GET / HTTP/1.1", ["Connection: Upgrade", "Upgrade: websocket"]) },
  // After an upgrade request what follows is another protocol's: answered without switching, the rest unread.
  {
    name: "Upgrade, then pipelined request",
    bytes: R("GET /one HTTP/1.1", ["Connection: Upgrade", "Upgrade: websocket"]) + R("GET /two HTTP/1.1"),
  },
  {
    name: "Upgrade on a POST with a body, then pipelined request",
    bytes: P(["Connection: Upgrade", "Upgrade: h2c", "Content-Length: 5"], "hello") + R("GET /two HTTP/1.1"),
  },
  {
    name: "Upgrade without Connection: upgrade, then pipelined",
    bytes: R("GET /one HTTP/1.1", ["Upgrade: websocket"]) + R("GET /two HTTP/1.1"),
  },
];
