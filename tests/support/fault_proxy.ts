/**
 * A TCP proxy in front of a real server that misbehaves on chosen
 * connections, for tests of what a client does when the network fails:
 * `drop` closes a connection as soon as a request arrives, `swallow` lets
 * the request through and closes the connection when the answer starts (the
 * server did the work; the client never hears of it), `slowdown` answers
 * S3's 503 `SlowDown` itself, `hang` never answers, `pass` forwards both
 * ways.
 *
 * @module
 */

/** What the proxy does with one connection. */
export type Fault = "pass" | "drop" | "swallow" | "slowdown" | "hang";

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Stops listening and closes every connection. */
  stop(): Promise<void>;
}

const SLOWDOWN_BODY = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
const SLOWDOWN = `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/xml\r\ncontent-length: ${
  new TextEncoder().encode(SLOWDOWN_BODY).length
}\r\nconnection: close\r\n\r\n${SLOWDOWN_BODY}`;

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // closed already
  }
}

async function handle(client: Deno.Conn, upstream: string, fault: Fault, open: Set<Deno.Conn>): Promise<void> {
  const first = new Uint8Array(65536);
  const n = await client.read(first).catch(() => null);
  if (n === null || fault === "drop") return closeQuietly(client);
  if (fault === "hang") return;
  if (fault === "slowdown") {
    await client.write(new TextEncoder().encode(SLOWDOWN)).catch(() => {});
    return closeQuietly(client);
  }
  const url = new URL(upstream);
  const server = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  open.add(server);
  await server.write(first.subarray(0, n));
  const up = client.readable.pipeTo(server.writable).catch(() => {});
  if (fault === "pass") {
    await Promise.all([up, server.readable.pipeTo(client.writable).catch(() => {})]);
    return;
  }
  // swallow: the answer's first bytes mean the server has done the request; the client hears nothing.
  await server.read(new Uint8Array(1)).catch(() => null);
  closeQuietly(client);
  closeQuietly(server);
}

/**
 * Starts a proxy to `upstream` (`http://host:port`) on a port of the
 * kernel's choosing; connection `i` (from 0) meets `faults(i)`.
 *
 * @example
 * ```ts ignore
 * const proxy = startFaultProxy(server.endpoint, (i) => (i < 2 ? "drop" : "pass"));
 * ```
 */
export function startFaultProxy(upstream: string, faults: (i: number) => Fault): FaultProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let count = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      handle(conn, upstream, faults(count++), open).catch(() => {});
    }
  })().catch(() => {});
  return {
    endpoint: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    connections: () => count,
    async stop() {
      listener.close();
      for (const conn of open) closeQuietly(conn);
      await accepting;
    },
  };
}
