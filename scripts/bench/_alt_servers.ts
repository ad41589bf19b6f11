/**
 * The three HTTP servers `http_alternatives.ts` compares, each answering
 * the same tiny API the slow-body attack aims at: `GET
 * /projects/notes/data` with the token (200, a small JSON page), `POST
 * /ui/login` (reads its body, then 401), anything else without the token
 * (401 at once, connection closed). Run with an argument: `own` (svc's
 * HTTP/1.1 server, `src/http/`), `deno` (`Deno.serve`); the `node:http`
 * one is `NODE_SERVER` below, run under Node. Each prints its port.
 *
 * @module
 */
import { serve } from "../../src/runtime/mod.ts";

/** The token the attack's probe sends. */
export const ALT_TOKEN = "alternatives-token-0123456789";

/** The `node:http` server, as a Node ES module: every timeout and cap `node:http` offers, at svc's values. */
export const NODE_SERVER = `
import http from "node:http";
const token = ${JSON.stringify(ALT_TOKEN)};
const server = http.createServer({ requestTimeout: 60000, headersTimeout: 10000, keepAliveTimeout: 5000 }, (req, res) => {
  const authed = req.headers.authorization === "Bearer " + token;
  if (req.method === "GET" && authed && req.url.startsWith("/projects/notes/data")) {
    res.writeHead(200, { "content-type": "application/json" }).end('{"project":"notes","version":1,"count":0,"records":[]}');
    return;
  }
  if (req.url === "/ui/login") {
    req.resume();
    req.on("end", () => res.writeHead(401, { "content-type": "application/json" }).end('{"error":"wrong token"}'));
    return;
  }
  res.writeHead(401, { "content-type": "application/json", connection: "close" }).end('{"error":"needs its token"}');
});
server.maxConnections = 64;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

async function answer(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const authed = req.headers.get("authorization") === `Bearer ${ALT_TOKEN}`;
  if (req.method === "GET" && authed && url.pathname === "/projects/notes/data") {
    return Response.json({ project: "notes", version: 1, count: 0, records: [] });
  }
  if (url.pathname === "/ui/login") {
    await req.arrayBuffer();
    return Response.json({ error: "wrong token" }, { status: 401 });
  }
  return Response.json({ error: "needs its token" }, { status: 401, headers: { connection: "close" } });
}

if (import.meta.main) {
  if (Deno.args[0] === "own") {
    const server = await serve(answer, { hostname: "127.0.0.1", port: 0, limits: { maxConnections: 64 } });
    console.log(server.addr.port);
  } else {
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) }, answer);
  }
}
