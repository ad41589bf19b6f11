/**
 * A programmable stand-in for the origin on a loopback port: answers JSON by
 * default and, per path, plays queued faults first (statuses with headers and
 * bodies, HTML error pages, redirects, delays, dropped connections). Every
 * request is recorded.
 *
 * @module
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer. */
export interface Fault {
  /** Status (default 200). */
  status?: number;
  /** Headers to send. */
  headers?: Record<string, string>;
  /** Body (default `{"ok": true}`). */
  body?: string | Uint8Array;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Close the connection without answering. */
  drop?: boolean;
}

/** A request the origin received. */
export interface Seen {
  /** Method. */
  method: string;
  /** Path with query. */
  path: string;
  /** Headers, lowercased. */
  headers: IncomingMessage["headers"];
  /** Body text. */
  body: string;
}

/** A running test origin. */
export interface TestOrigin {
  /** Base URL. */
  url: string;
  /** Queues faults for `path` (without query), played in order. */
  fault(path: string, ...faults: Fault[]): void;
  /** What arrived, in order. */
  seen: Seen[];
  /** Resolves once a request whose path contains `part` has arrived (or `ms` pass). */
  waitFor(part: string, ms?: number): Promise<void>;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts a test origin on a free loopback port. */
export function startOrigin(): Promise<TestOrigin> {
  const queues = new Map<string, Fault[]>();
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const path = req.url ?? "/";
      seen.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      const fault = queues.get(path.split("?")[0])?.shift() ?? {};
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(fault.status ?? 200, { "content-type": "application/json", ...fault.headers });
      res.end(fault.body ?? JSON.stringify({ ok: true, path }));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        fault: (path, ...faults) => queues.set(path, [...(queues.get(path) ?? []), ...faults]),
        seen,
        async waitFor(part, ms = 15_000) {
          const deadline = Date.now() + ms;
          while (!seen.some((s) => s.path.includes(part)) && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 50));
          }
        },
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
