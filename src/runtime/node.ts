/**
 * Serving under Node with `node:http`: requests become Web `Request`s and
 * `Response`s are streamed back with backpressure.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable } from "node:stream";
import type { RunningServer, ServeHandler, ServeOptions } from "./types.ts";

const BAD_REQUEST = JSON.stringify({ error: "malformed HTTP request" });

function toRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    } catch {
      // a header Fetch cannot hold is left out, as Deno.serve does
    }
  }
  const host = req.headers.host ?? fallbackHost;
  const url = new URL(req.url ?? "/", `http://${host}`);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    body: hasBody ? Readable.toWeb(req) as ReadableStream<Uint8Array> : null,
    // @ts-ignore: Node's fetch needs `duplex` for streamed bodies; the DOM types do not know it
    duplex: "half",
  });
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = key === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const closed = new Promise<void>((resolve) => res.once("close", resolve));
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await Promise.race([new Promise((r) => res.once("drain", r)), closed]);
      }
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
    }
    res.end();
  } catch (e) {
    await reader.cancel().catch(() => {});
    res.destroy(e instanceof Error ? e : new Error(String(e)));
  }
}

/**
 * Serves `handler` on Node's `http` module.
 *
 * @example
 * ```ts ignore
 * const server = await serveNode(async () => new Response("hi"), { hostname: "127.0.0.1", port: 0 });
 * await server.shutdown();
 * ```
 */
export function serveNode(handler: ServeHandler, options: ServeOptions): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const busy = new WeakSet<Socket>();
  let closing = false;
  const server = createServer(async (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    const abort = new AbortController();
    res.once("close", () => abort.abort());
    try {
      const fallback = `${options.hostname}:${(server.address() as AddressInfo).port}`;
      const response = await handler(toRequest(req, fallback, abort.signal), { remoteAddr: socket.remoteAddress });
      if (closing) res.setHeader("connection", "close");
      await writeResponse(res, response);
    } catch (e) {
      console.error("error: unhandled in request:", e);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end('{"error":"internal error"}');
    } finally {
      busy.delete(socket);
      if (closing) socket.end();
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${
            Buffer.byteLength(BAD_REQUEST)
          }\r\nconnection: close\r\nx-svc-node: 1\r\n\r\n${BAD_REQUEST}`,
      );
    } else {
      socket.destroy();
    }
  });
  const finished = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      resolve({
        addr: { hostname: address.address, port: address.port },
        finished,
        shutdown() {
          if (!closing) {
            closing = true;
            server.close();
            for (const socket of sockets) if (!busy.has(socket)) socket.end();
          }
          return finished;
        },
      });
    });
  });
}
