import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { type HttpLimits, type HttpServer, type Listen, serveHttp } from "../../src/http/mod.ts";
import { listenDeno } from "../../src/runtime/deno.ts";
import { listenNode } from "../../src/runtime/node.ts";
import { openSocket, rawRequest } from "../support/raw_http.ts";

/** Both runtimes' listeners; under Deno both run (the Node one over Deno's node:net). */
const LISTENERS: [string, Listen][] = [["Deno.listen", listenDeno(Deno)], ["node:net", listenNode]];

const FAST: Partial<HttpLimits> = {
  headerTimeoutMs: 400,
  idleTimeoutMs: 300,
  stallTimeoutMs: 400,
  bodyGraceMs: 400,
  shutdownGraceMs: 500,
};

/** A handler that echoes what it was asked, reads bodies when asked to, and can be slow. */
async function echo(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/too-large") return Response.json({ error: "too large" }, { status: 413 });
  if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms"))));
  if (url.pathname === "/big") return new Response(new Uint8Array(Number(url.searchParams.get("bytes"))));
  const body = req.body ? await req.text() : null;
  return Response.json({ method: req.method, url: req.url, host: req.headers.get("host"), body });
}

async function withServer(
  listen: Listen,
  limits: Partial<HttpLimits>,
  fn: (server: HttpServer, port: number) => Promise<void>,
): Promise<void> {
  const server = await serveHttp(listen, echo, { hostname: "127.0.0.1", port: 0, limits, log: () => {} });
  try {
    await fn(server, server.addr.port);
  } finally {
    await server.shutdown();
  }
}

const GET = (port: number, path = "/") => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;

for (const [name, listen] of LISTENERS) {
  Deno.test(`${name}: past the connection cap the next connection hears 503, Retry-After: 1, and is closed`, async () => {
    await withServer(listen, { maxConnections: 3 }, async (server, port) => {
      const held = await Promise.all([1, 2, 3].map(() => openSocket(port)));
      while (server.connections() < 3) await new Promise((r) => setTimeout(r, 10));
      const refused = await rawRequest(port, GET(port));
      assertEquals(refused.status, 503);
      assertEquals(refused.headers["retry-after"], "1");
      assertEquals(refused.headers["connection"], "close");
      assertMatch(JSON.parse(refused.body).error, /limit of 3 connections/);
      held[0].destroy();
      while (server.connections() > 2) await new Promise((r) => setTimeout(r, 10));
      assertEquals(
        (await rawRequest(port, GET(port).replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"))).status,
        200,
      );
      for (const s of held) s.destroy();
    });
  });

  Deno.test(`${name}: a connection that sends nothing is closed without an answer; a head sent a byte at a time is answered 408 and closed`, async () => {
    await withServer(listen, FAST, async (server, port) => {
      const silent = await openSocket(port);
      const slow = await openSocket(port);
      const head = GET(port);
      let sent = 0;
      const drip = setInterval(() => slow.send(head[sent++ % head.length]), 50);
      try {
        const [a, b] = await Promise.all([silent.closed, slow.closed]);
        assert(a < 3000 && b < 3000, `closed after ${a} and ${b} ms`);
        // A client that opened the connection ahead of a request must not read a 408 as that request's answer.
        assertEquals(silent.received(), "", "nothing written to a connection that sent nothing");
        assertMatch(slow.received(), /^HTTP\/1\.1 408 /);
        assert(sent < head.length, "the slow head never completed");
      } finally {
        clearInterval(drip);
      }
      await until(() => server.connections() === 0, "the server let both connections go");
    });
  });

  Deno.test(`${name}: kept-alive connections close when idle; requests on them are served in order`, async () => {
    await withServer(listen, FAST, async (_server, port) => {
      const s = await openSocket(port);
      s.send(GET(port, "/one") + GET(port, "/two"));
      await s.waitFor("/two");
      assert(s.received().indexOf("/one") < s.received().indexOf("/two"), "pipelined answers in order");
      assertMatch(s.received(), /keep-alive: timeout=0/);
      const ms = await s.closed;
      assert(ms < 3000, `closed after ${ms} ms idle`);
    });
  });

  Deno.test(`${name}: a request body that stalls is answered 408, naming the rate, and closed`, async () => {
    await withServer(listen, FAST, async (server, port) => {
      const s = await openSocket(port);
      s.send(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 10\r\n\r\nhalf.`);
      const ms = await s.closed;
      assert(ms < 3000, `dropped after ${ms} ms`);
      assertMatch(s.received(), /^HTTP\/1\.1 408 [^]*connection: close\r\n[^]*slower than 1024 bytes a second/);
      await until(() => server.connections() === 0, "the server let the connection go");
    });
  });

  Deno.test(`${name}: after 413 with connection: close the node stops reading and closes`, async () => {
    await withServer(listen, {}, async (_server, port) => {
      const s = await openSocket(port);
      s.send(`POST /too-large HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 1073741824\r\n\r\n`);
      const chunk = new Uint8Array(64 * 1024);
      let sent = 0;
      const pump = setInterval(() => {
        for (let i = 0; i < 8 && s.send(chunk); i++) sent += chunk.length;
      }, 5);
      try {
        const ms = await s.closed;
        assert(ms < 5000, `closed after ${ms} ms`);
        assertMatch(s.received(), /^HTTP\/1\.1 413 [^]*connection: close\r\n/);
        assert(sent < 512 * 1024 * 1024, `the node stopped taking the body (${sent} bytes sent)`);
      } finally {
        clearInterval(pump);
      }
    });
  });

  Deno.test(`${name}: a client that stops reading a large answer is dropped`, async () => {
    await withServer(listen, FAST, async (server, port) => {
      const s = await openSocket(port, { read: false });
      s.send(GET(port, `/big?bytes=${256 * 1024 * 1024}`));
      const deadline = Date.now() + 10_000;
      while (server.connections() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assertEquals(server.connections(), 0, "the stalled write was cut");
      s.destroy();
    });
  });

  Deno.test(`${name}: HTTP/2 prior knowledge is refused with SETTINGS and GOAWAY(HTTP_1_1_REQUIRED)`, async () => {
    await withServer(listen, {}, async (_server, port) => {
      const s = await openSocket(port);
      s.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00");
      await s.closed;
      const bytes = [...s.received()].map((c) => c.charCodeAt(0));
      assertEquals(bytes.slice(0, 9), [0, 0, 0, 4, 0, 0, 0, 0, 0], "an empty SETTINGS frame");
      assertEquals(bytes[12], 7, "then GOAWAY");
      assertEquals(bytes.slice(22, 26), [0, 0, 0, 0x0d], "error HTTP_1_1_REQUIRED");
      assertMatch(s.received(), /HTTP\/1\.1 only/);
    });
  });

  Deno.test(`${name}: framing that could smuggle or confuse is refused and the connection closed`, async () => {
    await withServer(listen, {}, async (_server, port) => {
      const host = `Host: 127.0.0.1:${port}\r\n`;
      const cases: [string, number, RegExp][] = [
        [`POST / HTTP/1.1\r\n${host}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, /together/],
        [`POST / HTTP/1.1\r\n${host}Transfer-Encoding: gzip, chunked\r\n\r\n`, 501, /chunked/],
        [`POST / HTTP/1.1\r\n${host}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`, 400, /more than one/],
        [`POST / HTTP/1.1\r\n${host}Content-Length: +3\r\n\r\nabc`, 400, /Content-Length/],
        [`GET / HTTP/1.1\r\n${host}X-A: 1\r\n folded\r\n\r\n`, 400, /folded/],
        [`GET / HTTP/1.1\r\n${host}X-A : 1\r\n\r\n`, 400, /header name/],
        [`GET / HTTP/1.1\n${host}\r\n`, 400, /bare CR or LF/],
        [`GET / HTTP/1.1\r\n${host}${host}\r\n`, 400, /more than one host/],
        [`GET / HTTP/1.1\r\n\r\n`, 400, /Host header/],
        [`GET / HTTP/3.0\r\n${host}\r\n`, 505, /not supported/],
        [`GET relative HTTP/1.1\r\n${host}\r\n`, 400, /start with \//],
        [`GET / HTTP/1.1\r\n${host}Expect: something\r\n\r\n`, 417, /Expect/],
        [`GET / HTTP/1.1\r\n${host}X-Big: ${"a".repeat(40_000)}\r\n\r\n`, 431, /over 32768 bytes/],
        [`GET /${"a".repeat(9000)} HTTP/1.1\r\n${host}\r\n`, 414, /request line is over 8192/],
        [`GET /a\x00b HTTP/1.1\r\n${host}\r\n`, 400, /bad request target/],
        [`GET / HTTP/1.1\r\n${host}Transfer-Encoding: chunked, chunked\r\n\r\n`, 501, /chunked/],
        [`POST / HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n`, 400, /chunk size/],
        [`POST / HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n3\r\nabcXY`, 400, /no CRLF/],
      ];
      for (const [request, status, message] of cases) {
        const r = await rawRequest(port, request);
        assertEquals(r.status, status, JSON.stringify(request.slice(0, 80)));
        assertMatch(JSON.parse(r.body).error, message);
        assertEquals(r.headers.connection, "close");
      }
    });
  });

  Deno.test(`${name}: chunked bodies, Expect: 100-continue and HTTP/1.0 are served`, async () => {
    await withServer(listen, {}, async (_server, port) => {
      const host = `Host: 127.0.0.1:${port}\r\n`;
      const chunked = await rawRequest(
        port,
        `POST /c HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
          `4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n`,
      );
      assertEquals([chunked.status, JSON.parse(chunked.body).body], [200, "Wikipedia"]);
      const s = await openSocket(port);
      s.send(`POST /e HTTP/1.1\r\n${host}Content-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
      await s.waitFor("HTTP/1.1 100 Continue\r\n\r\n");
      s.send("hello");
      await s.closed;
      assertMatch(s.received(), /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK[^]*"body":"hello"/);
      const old = await rawRequest(port, `GET /old HTTP/1.0\r\n${host}\r\n`);
      assertEquals([old.status, old.headers.connection], [200, "close"]);
      const absolute = await rawRequest(
        port,
        `GET http://example.test:81/p?q=1 HTTP/1.1\r\n${host}Connection: close\r\n\r\n`,
      );
      assertEquals(JSON.parse(absolute.body).url, "http://example.test:81/p?q=1", "the absolute target is the URL");
    });
  });

  Deno.test(`${name}: shutdown closes idle connections, lets a request in flight finish, and cuts it after the grace`, async () => {
    const server = await serveHttp(listen, echo, { hostname: "127.0.0.1", port: 0, limits: FAST, log: () => {} });
    const port = server.addr.port;
    const idle = await openSocket(port);
    const short = await openSocket(port);
    const long = await openSocket(port);
    short.send(GET(port, "/slow?ms=200"));
    long.send(GET(port, "/slow?ms=5000"));
    while (server.connections() < 3) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await server.shutdown();
    const took = Date.now() - started;
    assert(took >= 450 && took < 2000, `shutdown took ${took} ms with a 500 ms grace`);
    await Promise.all([idle.closed, short.closed, long.closed]);
    assertEquals(idle.received(), "", "the idle connection closed unanswered");
    assertMatch(short.received(), /^HTTP\/1\.1 200 [^]*connection: close/);
    assertEquals(long.received(), "", "the request over the grace was cut");
    await assertRefused(port);
  });
}

async function until(condition: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function assertRefused(port: number): Promise<void> {
  try {
    const s = await openSocket(port);
    s.destroy();
  } catch {
    return;
  }
  throw new Error("the listener still accepts after shutdown");
}
