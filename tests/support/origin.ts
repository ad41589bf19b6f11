/**
 * A programmable stand-in for the origin on a loopback port: answers JSON by
 * default and, per path, plays queued faults first (statuses with headers and
 * bodies, HTML error pages, redirects, delays, dropped connections). Every
 * request is recorded. Part PUTs to the object store (`/_objects/`) can be
 * given faults of their own, played in order whatever the part: a status
 * once, or the connection cut halfway through the part's bytes.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type OriginApp, originApp, type OriginAppOptions } from "./origin_app.ts";

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
  /** Send the first half of the body, then wait this long before the rest. */
  holdMs?: number;
  /** Cut the connection once half of the request's body has arrived (part PUTs). */
  cut?: boolean;
  /** Let this one through to the origin's store as if no fault were queued (part PUTs). */
  pass?: boolean;
}

/** A request the origin received. */
export interface Seen {
  /** Method. */
  method: string;
  /** Path with query. */
  path: string;
  /** Headers, lowercased. */
  headers: IncomingMessage["headers"];
  /** Body text (empty for part PUTs to the object store). */
  body: string;
  /** Bytes of the body that arrived. */
  bytes: number;
  /** True when the test origin cut the connection halfway through the body. */
  cut?: boolean;
}

/**
 * What `seen` holds beyond the node probe (`GET /healthz`), which a client
 * without a key sends once before a call that needs one (origin-wire 1.3):
 * what "nothing was sent" means for such a call.
 */
export function beyondProbe(seen: readonly Seen[]): Seen[] {
  return seen.filter((s) => !(s.method === "GET" && s.path === "/healthz"));
}

/** A running test origin. */
export interface TestOrigin {
  /** Base URL. */
  url: string;
  /** Queues faults for `path` (without query), played in order. */
  fault(path: string, ...faults: Fault[]): void;
  /** Queues faults for the next part PUTs to the object store, whatever their part, played in order. */
  faultParts(...faults: Fault[]): void;
  /** The most part PUTs that were under way at once (from their first byte to their answer). */
  maxPutsInFlight(): number;
  /** Part PUTs under way now (a body still arriving, or an answer not yet sent). */
  putsInFlight(): number;
  /** What arrived, in order. */
  seen: Seen[];
  /** Resolves once a request whose path contains `part` has arrived (or `ms` pass). */
  waitFor(part: string, ms?: number): Promise<void>;
  /** Resolves the moment the next request for which `match` holds has arrived (before it is answered). */
  nextRequest(match: (s: Seen) => boolean, ms?: number): Promise<Seen>;
  /** The origin layer, when the origin serves a store. */
  app: OriginApp | null;
  /** The most part downloads that were under way at once. */
  maxPartsInFlight(): number;
  /** Stops the server. */
  close(): Promise<void>;
}

/** What the test origin serves: a store (with the origin's behaviour), or JSON echoes only. */
export type StartOriginOptions = Omit<OriginAppOptions, "origin">;

async function sendResponse(res: ServerResponse, answer: Response): Promise<void> {
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) {
    for await (const chunk of answer.body) {
      if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
    }
  }
  res.end();
}

/**
 * Starts a test origin on a free loopback port: over `options.store` it
 * behaves as the origin does (see `origin_app.ts`); queued faults come first.
 */
export async function startOrigin(options: StartOriginOptions | null = null): Promise<TestOrigin> {
  const queues = new Map<string, Fault[]>();
  const partFaults: Fault[] = [];
  const seen: Seen[] = [];
  const watchers = new Set<(s: Seen) => void>();
  const record = (s: Seen) => {
    seen.push(s);
    for (const watch of watchers) watch(s);
  };
  let app: OriginApp | null = null;
  let partsInFlight = 0;
  let maxPartsInFlight = 0;
  let putsInFlight = 0;
  let maxPutsInFlight = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const path = req.url ?? "/";
    const isPut = req.method === "PUT" && path.startsWith("/_objects/");
    const partFault = isPut ? partFaults.shift() : undefined;
    if (isPut) {
      maxPutsInFlight = Math.max(maxPutsInFlight, ++putsInFlight);
      res.on("close", () => putsInFlight--);
    }
    const half = Number(req.headers["content-length"] ?? 0) / 2;
    req.on("data", (c: Buffer) => {
      chunks.push(c);
      received += c.byteLength;
      if (partFault?.cut && received >= half && !req.socket.destroyed) {
        record({ method: req.method ?? "PUT", path, headers: req.headers, body: "", bytes: received, cut: true });
        req.socket.destroy();
      }
    });
    req.on("end", async () => {
      if (partFault?.cut) return;
      const raw = Buffer.concat(chunks);
      record({
        method: req.method ?? "GET",
        path,
        headers: req.headers,
        body: isPut ? "" : raw.toString(),
        bytes: raw.byteLength,
      });
      const fault = partFault
        ? (partFault.pass ? null : partFault)
        : queues.get(path.split("?")[0])?.shift() ?? (app ? null : {});
      if (!fault) {
        const request = new Request(`${url}${path}`, {
          method: req.method,
          headers: Object.entries(req.headers).map(([k, v]): [string, string] => [k, String(v)]),
          body: req.method === "GET" || req.method === "HEAD" ? undefined : raw,
        });
        const isPart = path.startsWith("/parts/");
        if (isPart) maxPartsInFlight = Math.max(maxPartsInFlight, ++partsInFlight);
        try {
          await sendResponse(res, await app!.handle(request)).catch(() => req.socket.destroy());
        } finally {
          if (isPart) partsInFlight--;
        }
        return;
      }
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(fault.status ?? 200, { "content-type": "application/json", ...fault.headers });
      const answer = fault.body ?? JSON.stringify({ ok: true, path });
      if (fault.holdMs) {
        const half = Math.floor(answer.length / 2);
        res.write(answer.slice(0, half));
        await new Promise((r) => setTimeout(r, fault.holdMs));
        if (!res.destroyed) res.end(answer.slice(half));
        return;
      }
      res.end(answer);
    });
  });
  const url = await new Promise<string>((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  if (options) app = await originApp({ ...options, origin: url });
  return {
    url,
    app,
    maxPartsInFlight: () => maxPartsInFlight,
    maxPutsInFlight: () => maxPutsInFlight,
    putsInFlight: () => putsInFlight,
    fault: (path, ...faults) => queues.set(path, [...(queues.get(path) ?? []), ...faults]),
    faultParts: (...faults) => void partFaults.push(...faults),
    seen,
    nextRequest(match, ms = 20_000) {
      return new Promise((resolve, reject) => {
        const watch = (s: Seen) => {
          if (!match(s)) return;
          watchers.delete(watch);
          clearTimeout(timer);
          resolve(s);
        };
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`no such request within ${ms} ms`));
        }, ms);
        watchers.add(watch);
      });
    },
    async waitFor(part, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!seen.some((s) => s.path.includes(part)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => {
      await new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
      await app?.close();
    },
  };
}
