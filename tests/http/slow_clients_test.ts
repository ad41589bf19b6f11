/**
 * Clients that hold connections by sending slowly: a body trickled a byte
 * at a time, a whole request that never ends, a body nobody wants, and a
 * full house of such connections that must give way to one that moves.
 *
 * @module
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { type HttpLimits, type HttpServer, type Listen, serveHttp } from "../../src/http/mod.ts";
import { listenDeno } from "../../src/runtime/deno.ts";
import { listenNode } from "../../src/runtime/node.ts";
import { type OpenSocket, openSocket, rawRequest } from "../support/raw_http.ts";

const LISTENERS: [string, Listen][] = [["Deno.listen", listenDeno(Deno)], ["node:net", listenNode]];

/** Refuses without reading the body under /refuse; reads it elsewhere; is slow under /slow. */
async function handler(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (path === "/refuse") return Response.json({ error: "needs its token" }, { status: 401 });
  if (path === "/slow") await new Promise((r) => setTimeout(r, 1500));
  return Response.json({ body: req.body ? (await req.text()).length : null });
}

async function withServer(
  listen: Listen,
  limits: Partial<HttpLimits>,
  fn: (server: HttpServer, port: number) => Promise<void>,
): Promise<void> {
  const server = await serveHttp(listen, handler, { hostname: "127.0.0.1", port: 0, limits, log: () => {} });
  try {
    await fn(server, server.addr.port);
  } finally {
    await server.shutdown();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await sleep(10);
  }
}

/** Opens a connection that sends a POST head declaring `length` bytes and one byte of the body. */
async function trickler(port: number, path: string, length = 60000): Promise<OpenSocket> {
  const s = await openSocket(port);
  s.send(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${length}\r\n\r\nx`);
  return s;
}

const GET_CLOSE = (port: number) => `GET /hello HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;

for (const [name, listen] of LISTENERS) {
  Deno.test(`${name}: a body trickled a byte at a time is answered 408 once its grace is over`, async () => {
    await withServer(listen, { bodyGraceMs: 600, minBodyRate: 1024 }, async (server, port) => {
      const s = await trickler(port, "/read");
      const drip = setInterval(() => s.send("y"), 100);
      try {
        const ms = await s.closed;
        assert(ms >= 500 && ms < 3000, `closed after ${ms} ms`);
        assertMatch(s.received(), /^HTTP\/1\.1 408 [^]*slower than 1024 bytes a second/);
      } finally {
        clearInterval(drip);
      }
      await until(() => server.connections() === 0, "the connection is let go");
    });
  });

  Deno.test(`${name}: a body that keeps the rate but not the whole-request deadline is answered 408`, async () => {
    const limits = { bodyGraceMs: 100, minBodyRate: 100, requestTimeoutMs: 1200 };
    await withServer(listen, limits, async (_server, port) => {
      const s = await trickler(port, "/read", 1_000_000);
      const pump = setInterval(() => s.send("z".repeat(500)), 50);
      try {
        const ms = await s.closed;
        assert(ms >= 1000 && ms < 4000, `closed after ${ms} ms`);
        assertMatch(s.received(), /^HTTP\/1\.1 408 [^]*not whole within 1\.2 s/);
      } finally {
        clearInterval(pump);
      }
    });
  });

  Deno.test(`${name}: an answer given before the body arrived closes the connection; a body in hand keeps it`, async () => {
    await withServer(listen, {}, async (_server, port) => {
      const s = await trickler(port, "/refuse", 100);
      const ms = await s.closed;
      assert(ms < 3000, `closed after ${ms} ms`);
      assertMatch(s.received(), /^HTTP\/1\.1 401 [^]*connection: close\r\n/);

      const whole = await openSocket(port);
      const body = "a".repeat(100);
      whole.send(
        `POST /refuse HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100\r\n\r\n${body}` +
          `GET /hello HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
      );
      await whole.waitFor('{"body":null}');
      assertEquals([...whole.received().matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]), ["401", "200"]);
      assert(!whole.isClosed(), "the connection was kept");
      whole.destroy();
    });
  });

  Deno.test(`${name}: with every slot held by trickled bodies, a new connection takes the slowest's slot`, async () => {
    const limits = { maxConnections: 4, evictAfterMs: 200, bodyGraceMs: 60_000, minBodyRate: 1024 };
    await withServer(listen, limits, async (server, port) => {
      const held = await Promise.all([1, 2, 3, 4].map(() => trickler(port, "/read")));
      await until(() => server.connections() === 4, "four connections are served");
      await sleep(300);
      for (let i = 0; i < 6; i++) {
        const started = Date.now();
        const answer = await rawRequest(port, GET_CLOSE(port));
        assertEquals(answer.status, 200, `request ${i}: ${answer.raw.slice(0, 200)}`);
        assert(Date.now() - started < 1000, `request ${i} took ${Date.now() - started} ms`);
      }
      // The first request took a trickler's slot; later ones took the slot of the one before, done and lingering.
      await until(() => held.some((s) => s.isClosed()), "a trickling connection gave its slot up");
      for (const s of held.filter((s) => s.isClosed())) assertEquals(s.received(), "", "an evicted one hears nothing");
      for (const s of held) s.destroy();
    });
  });

  Deno.test(`${name}: idle kept-alive connections give way; requests being handled keep their slots`, async () => {
    const limits = { maxConnections: 2, evictAfterMs: 200 };
    await withServer(listen, limits, async (server, port) => {
      const idle = await openSocket(port);
      idle.send(`GET /hello HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await idle.waitFor('{"body":null}');
      const slow = await openSocket(port);
      slow.send(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await until(() => server.connections() === 2, "two connections are served");
      await sleep(300);
      assertEquals((await rawRequest(port, GET_CLOSE(port))).status, 200);
      await idle.closed;
      const slow2 = await openSocket(port);
      slow2.send(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await until(() => server.connections() === 2, "two slow requests are served");
      await sleep(300);
      const refused = await rawRequest(port, GET_CLOSE(port));
      assertEquals(refused.status, 503, "both slow requests are being handled: neither gives way");
      await slow.waitFor('{"body":null}');
      await slow2.waitFor('{"body":null}');
      slow2.destroy();
      slow.destroy();
    });
  });
}

Deno.test("a connection opened just after another was closed gets the freed slot, not 503", async () => {
  for (const [name, listen] of LISTENERS) {
    await withServer(listen, { maxConnections: 3, evictAfterMs: 60_000 }, async (server, port) => {
      for (let round = 0; round < 10; round++) {
        const held = await Promise.all([1, 2, 3].map(() => openSocket(port)));
        await until(() => server.connections() === 3, "three connections are served");
        held[0].destroy();
        const answer = await rawRequest(port, GET_CLOSE(port));
        assertEquals(answer.status, 200, `${name}, round ${round}`);
        for (const s of held) s.destroy();
        await until(() => server.connections() === 0, "the server let them all go");
      }
    });
  }
});
