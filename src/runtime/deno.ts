/**
 * Serving under Deno with `Deno.serve`, whose `shutdown()` lets in-flight
 * requests finish.
 *
 * @module
 */
import type { RunningServer, ServeHandler, ServeOptions } from "./types.ts";

interface DenoServer {
  addr: { hostname: string; port: number };
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

/** The part of the `Deno` global the adapter uses (typed here so tsc builds without Deno's types). */
export interface DenoGlobal {
  serve(
    options: {
      hostname: string;
      port: number;
      onListen?: (addr: { hostname: string; port: number }) => void;
      onError?: (error: unknown) => Response;
    },
    handler: (req: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): DenoServer;
  addSignalListener(signal: "SIGINT" | "SIGTERM", fn: () => void): void;
  exit(code: number): never;
  execPath(): string;
}

/** The `Deno` global, when running under Deno. */
export function denoGlobal(): DenoGlobal | undefined {
  return (globalThis as { Deno?: DenoGlobal }).Deno;
}

/** Serves `handler` with `Deno.serve`. */
export function serveDeno(deno: DenoGlobal, handler: ServeHandler, options: ServeOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    try {
      const server = deno.serve(
        {
          hostname: options.hostname,
          port: options.port,
          onListen: () => {},
          onError: () => new Response('{"error":"internal error"}', { status: 500 }),
        },
        (req, info) => handler(req, { remoteAddr: info.remoteAddr.hostname }),
      );
      resolve({
        addr: { hostname: server.addr.hostname, port: server.addr.port },
        shutdown: () => server.shutdown(),
        finished: server.finished,
      });
    } catch (e) {
      reject(e);
    }
  });
}
