/**
 * HAProxy for the fleet tests (tests/fleet/haproxy_test.ts, and the Delta
 * Sharing readers through it): its configuration in front of the readers,
 * checked on `/readyz`, its statistics page read as rows, and its log read as
 * requests.
 *
 * @module
 */
import type { FleetNode } from "./_fleet.ts";

/** HAProxy's configuration: one frontend, the readers checked on `/readyz`, a stats page. */
export function haproxyConfig(front: number, stats: number, readers: FleetNode[]): string {
  return `global
  maxconn 1024

defaults
  mode http
  log stdout format raw local0 info
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout http-request 10s
  timeout check 3s
  # A request whose connection was refused, reset or closed before an answer is sent again, to another reader.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response junk-response response-timeout 503
  option http-buffer-request

frontend fleet
  bind 127.0.0.1:${front}
  # One short line a request: method, retries ("+" when sent to another reader), status, the reader that answered, path.
  log-format "req %HM %rc %ST %s %HP"
  default_backend readers

backend readers
  balance roundrobin
  option httpchk
  # HAProxy's checks speak HTTP/1.0 without Host unless told; the node wants a Host (any, as the readers hold a token).
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host svc-reader
  http-check expect status 200
  http-response set-header x-fleet-reader %s
  default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down
${readers.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check`).join("\n")}

listen stats
  bind 127.0.0.1:${stats}
  stats enable
  stats uri /stats
  stats refresh 0
`;
}

/** One request in HAProxy's log. */
export interface LoggedRequest {
  /** `GET`, `POST`, ... */
  method: string;
  /** How many times HAProxy sent it again (`+` before it: to another reader). */
  retries: string;
  /** The status answered. */
  status: number;
  /** The reader that answered (`r1`, ...; `<NOSRV>` when none did). */
  reader: string;
  /** The path asked for, without its query string. */
  path: string;
}

/** The requests HAProxy logged in `output` (its stdout and stderr, as `Daemon.output()` keeps them), in order. */
export function loggedRequests(output: string): LoggedRequest[] {
  const lines = output.matchAll(/^req (\S+) (\+?\d+) (-?\d+) (\S+) (\S+)$/gm);
  return [...lines].map(([, method, retries, status, reader, path]) => ({
    method,
    retries,
    status: Number(status),
    reader,
    path,
  }));
}

/** HAProxy's statistics as rows (`pxname`, `svname`, `status`, `wretr`, `wredis`, `stot`, ...). */
export async function haproxyStats(stats: number): Promise<Record<string, string>[]> {
  const text = await (await fetch(`http://127.0.0.1:${stats}/stats;csv`)).text();
  const [head, ...lines] = text.trim().split("\n");
  const names = head.replace(/^# /, "").split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], v])));
}

export async function serverStatus(stats: number, name: string): Promise<string> {
  return (await haproxyStats(stats)).find((r) => r.pxname === "readers" && r.svname === name)?.status ?? "?";
}

export async function backendRetries(stats: number): Promise<number> {
  const backend = (await haproxyStats(stats)).find((r) => r.pxname === "readers" && r.svname === "BACKEND");
  return Number(backend?.wretr ?? 0);
}
