import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { type QuickHandler, type RequestHeadView, serveHttp } from "../../src/http/mod.ts";
import { listenDeno } from "../../src/runtime/deno.ts";
import { listenNode } from "../../src/runtime/node.ts";
import { openSocket, rawRequest } from "../support/raw_http.ts";

const encoder = new TextEncoder();

/** Answers `/q` from the head (echoing what the head view shows), throws on `/throw`, passes the rest on. */
function quickLane(seen: RequestHeadView[]): QuickHandler {
  return (head) => {
    seen.push(head);
    const url = new URL(head.url);
    if (url.pathname === "/throw") throw new Error("the quick lane broke");
    if (url.pathname !== "/q") return Promise.resolve(null);
    const body = JSON.stringify({ quick: true, url: head.url, accept: head.headers.get("accept") });
    return Promise.resolve({
      status: 200,
      headers: [["content-type", "application/json"]],
      body: encoder.encode(body),
    });
  };
}

async function handler(req: Request): Promise<Response> {
  const body = req.body ? await req.text() : null;
  return Response.json({ quick: false, method: req.method, path: new URL(req.url).pathname, body });
}

for (const [name, listen] of [["Deno.listen", listenDeno(Deno)], ["node:net", listenNode]] as const) {
  Deno.test(`${name}: the quick lane answers GET and HEAD from the head; null, a throw, POST or a body go to the handler`, async () => {
    const seen: RequestHeadView[] = [];
    const server = await serveHttp(listen, handler, {
      hostname: "127.0.0.1",
      port: 0,
      quick: quickLane(seen),
      log: () => {},
    });
    const port = server.addr.port;
    const host = `Host: 127.0.0.1:${port}\r\n`;
    try {
      const got = await rawRequest(
        port,
        `GET /q?x=1 HTTP/1.1\r\n${host}Accept: a\r\nAccept: b\r\nConnection: close\r\n\r\n`,
      );
      assertEquals(got.status, 200);
      assertEquals(got.headers["content-type"], "application/json");
      assertEquals(got.headers["connection"], "close");
      assertEquals(JSON.parse(got.body), { quick: true, url: `http://127.0.0.1:${port}/q?x=1`, accept: "a, b" });
      assertEquals(Number(got.headers["content-length"]), encoder.encode(got.body).length);

      const head = await rawRequest(port, `HEAD /q HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      assertEquals(head.status, 200);
      assertEquals(head.body, "", "a HEAD answer has no body");
      assert(Number(head.headers["content-length"]) > 0, "but says how long the GET body is");

      const passed = await rawRequest(port, `GET /other HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      assertEquals(JSON.parse(passed.body), { quick: false, method: "GET", path: "/other", body: null });
      const thrown = await rawRequest(port, `GET /throw HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      assertEquals(JSON.parse(thrown.body).quick, false, "a quick lane that throws leaves the request to the handler");

      const asked = seen.length;
      const post = await rawRequest(
        port,
        `POST /q HTTP/1.1\r\n${host}Content-Length: 2\r\nConnection: close\r\n\r\nhi`,
      );
      assertEquals(JSON.parse(post.body), { quick: false, method: "POST", path: "/q", body: "hi" });
      const withBody = await rawRequest(
        port,
        `GET /q HTTP/1.1\r\n${host}Content-Length: 2\r\nConnection: close\r\n\r\nhi`,
      );
      assertEquals(JSON.parse(withBody.body).quick, false, "a GET with a body is not answered from its head");
      assertEquals(seen.length, asked, "the quick lane was not asked about either");
    } finally {
      await server.shutdown();
    }
  });

  Deno.test(`${name}: quick answers keep the connection for pipelined requests, in order with the handler's`, async () => {
    const server = await serveHttp(listen, handler, {
      hostname: "127.0.0.1",
      port: 0,
      quick: quickLane([]),
      log: () => {},
    });
    const port = server.addr.port;
    const host = `Host: 127.0.0.1:${port}\r\n`;
    try {
      const socket = await openSocket(port);
      socket.send(
        `GET /q HTTP/1.1\r\n${host}\r\nGET /p HTTP/1.1\r\n${host}\r\nGET /q HTTP/1.1\r\n${host}Connection: close\r\n\r\n`,
      );
      await socket.closed;
      const answers = socket.received().split(/(?=HTTP\/1\.1 )/);
      assertEquals(answers.length, 3);
      assertMatch(answers[0], /keep-alive: timeout=\d+[^]*"quick":true/);
      assertMatch(answers[1], /"quick":false/);
      assertMatch(answers[2], /connection: close[^]*"quick":true/);
    } finally {
      await server.shutdown();
    }
  });
}
