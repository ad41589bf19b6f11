/**
 * The listener under Node: `node:net`. Node itself survives running out of
 * descriptors on accept (libuv accepts and closes the pending connection),
 * so the adapter only reports it.
 *
 * @module
 */
import { createServer, type Socket } from "node:net";
import type { Conn, Listen } from "../http/mod.ts";

/** A `node:net` socket as a {@linkcode Conn}. */
export function socketConn(socket: Socket): Conn {
  socket.setNoDelay(true);
  const chunks: Uint8Array[] = [];
  let ended = false;
  let waiting: ((chunk: Uint8Array | null) => void) | null = null;
  const deliver = () => {
    if (!waiting) return;
    const resolve = waiting;
    if (chunks.length > 0) {
      waiting = null;
      resolve(chunks.shift()!);
    } else if (ended) {
      waiting = null;
      resolve(null);
    }
  };
  socket.on("data", (chunk: Uint8Array) => {
    chunks.push(chunk);
    // Reading is paused until the connection asks for more: a peer cannot fill memory faster than it is read.
    socket.pause();
    deliver();
  });
  const end = () => {
    ended = true;
    deliver();
  };
  socket.on("end", end);
  socket.on("close", end);
  socket.on("error", end);
  return {
    remoteAddr: socket.remoteAddress ?? "-",
    read() {
      if (chunks.length > 0) return Promise.resolve(chunks.shift()!);
      if (ended || socket.destroyed) return Promise.resolve(null);
      return new Promise((resolve) => {
        waiting = resolve;
        socket.resume();
      });
    },
    write(bytes) {
      return new Promise((resolve, reject) => {
        if (socket.destroyed || !socket.writable) return reject(new Error("the connection is closed"));
        const onClose = () => reject(new Error("the connection closed while writing"));
        socket.once("close", onClose);
        socket.write(bytes, (error) => {
          socket.off("close", onClose);
          if (error) reject(error);
          else resolve();
        });
      });
    },
    closeWrite() {
      if (!socket.destroyed) socket.end();
    },
    close() {
      socket.destroy();
      end();
    },
  };
}

/**
 * Listens with `node:net`.
 *
 * @example
 * ```ts
 * import { listenNode } from "./node.ts";
 * const listener = await listenNode({ hostname: "127.0.0.1", port: 0 }, (conn) => conn.close(), console.error);
 * listener.close();
 * ```
 */
export const listenNode: Listen = (options, onConn, onError) => {
  const server = createServer({ pauseOnConnect: true }, (socket) => onConn(socketConn(socket)));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, host: options.hostname, backlog: 511 }, () => {
      server.off("error", reject);
      server.on("error", (e) => onError(e));
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no TCP address was bound"));
      resolve({ addr: { hostname: address.address, port: address.port }, close: () => server.close() });
    });
  });
};
