/**
 * Whether a stock HTTP server could stand where svc's own does (issue 26):
 * `node:http` (Node 20, with `maxConnections`, `headersTimeout`,
 * `requestTimeout` and `keepAliveTimeout` at svc's values) and
 * `Deno.serve`, against svc's `src/http/` serving the same handler, under
 * two attacks of the exposure tests, each run while a token holder asks for
 * a page every 250 ms on a fresh connection:
 *
 * - the slow-body attack (64 sockets, a POST declaring 60,000 bytes, one
 *   byte every 20 s, reopened when closed), 20 s;
 * - an idle flood: 2,000 connections that send nothing, held 15 s; how
 *   many the server still holds at the end is printed too.
 *
 * Each server runs with 1,024 file descriptors (`ulimit -n 1024`, the usual
 * default), as a node would on a stock machine.
 *
 * Prints, per server and attack, the share of the holder's requests
 * answered 200 and their median time.
 *
 * ```sh
 * deno run -A --lock=deno.dev.lock scripts/bench/http_alternatives.ts
 * ```
 *
 * @module
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type OpenSocket, openSocket, rawRequest } from "../../tests/support/raw_http.ts";
import { slowBodyAttack } from "../../tests/support/slow_body_attack.ts";
import { ALT_TOKEN, NODE_SERVER } from "./_alt_servers.ts";
import { median, printTable } from "./_util.ts";

const SERVERS = ["svc src/http", "node:http", "Deno.serve"] as const;
type ServerName = typeof SERVERS[number];

/** Starts `name` in a process of its own; resolves with its port and a stop function. */
function start(name: ServerName): Promise<{ port: number; stop(): void }> {
  const file = fileURLToPath(new URL("./_alt_servers.ts", import.meta.url));
  const command = name === "node:http"
    ? ["node", "--input-type=module", "-e", NODE_SERVER]
    : [Deno.execPath(), "run", "-A", "--lock=deno.dev.lock", file, name === "Deno.serve" ? "deno" : "own"];
  const child = spawn("/bin/sh", ["-c", 'ulimit -n 1024 && exec "$@"', "sh", ...command], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once(
      "data",
      (c: Uint8Array) =>
        resolve({ port: Number(new TextDecoder().decode(c).trim()), stop: () => child.kill("SIGKILL") }),
    );
    child.once("exit", (code) => reject(new Error(`${name} exited ${code}`)));
  });
}

/** The token holder's requests while `attack` runs: 200s and the median time of all. */
async function probeDuring(port: number, seconds: number): Promise<{ ok: number; total: number; ms: number }> {
  const times: number[] = [];
  let ok = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const answer = await rawRequest(
      port,
      `GET /projects/notes/data?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${ALT_TOKEN}\r\nConnection: close\r\n\r\n`,
      3000,
    ).catch(() => ({ status: 0 }));
    times.push(performance.now() - started);
    if (answer.status === 200) ok++;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ok, total: times.length, ms: median(times) };
}

/** Opens `count` idle connections, probes for `seconds`, and counts those the server still holds. */
async function idleFlood(port: number, count: number, seconds: number) {
  const sockets: OpenSocket[] = [];
  for (let i = 0; i < count; i++) {
    try {
      sockets.push(await openSocket(port));
    } catch {
      break;
    }
  }
  const probed = await probeDuring(port, seconds);
  let held = 0;
  await Promise.all(
    sockets.map((s) =>
      Promise.race([s.closed.then(() => false), new Promise((r) => setTimeout(() => r(true), 50))]).then((open) => {
        if (open) held++;
      })
    ),
  );
  for (const s of sockets) s.destroy();
  return { ...probed, held, opened: sockets.length };
}

const rows: string[][] = [];
for (const name of SERVERS) {
  const server = await start(name);
  try {
    const attack = await slowBodyAttack(server.port, { token: ALT_TOKEN, slug: "notes", seconds: 20 });
    const ok = attack.probes.filter((p) => p.status === 200).length;
    rows.push([
      name,
      "slow bodies, 64 sockets, 20 s",
      `${ok}/${attack.probes.length}`,
      `${Math.round(median(attack.probes.map((p) => p.ms)))} ms`,
      `${attack.reopened} closed by the server`,
    ]);
    await new Promise((r) => setTimeout(r, 1000));
    const flood = await idleFlood(server.port, 2000, 15);
    rows.push([
      name,
      `idle flood, ${flood.opened} sockets, 15 s`,
      `${flood.ok}/${flood.total}`,
      `${Math.round(flood.ms)} ms`,
      `${flood.held} still held at the end`,
    ]);
  } finally {
    server.stop();
  }
}
printTable(["server", "attack", "holder's 200s", "median", "attack connections"], rows);
