/**
 * The slow-body attack on a node, and a token holder asking meanwhile: 64
 * sockets without the token, each sending a POST head that declares 60,000
 * bytes and then one byte every 20 s, half to a route that needs the token
 * (`/projects/{slug}/query`) and half to one that reads its body without it
 * (`/ui/login`), each opened again 100 ms after the node closes it. The
 * token holder asks for a page every 250 ms on a fresh connection.
 *
 * @module
 */
import { type OpenSocket, openSocket, rawRequest } from "./raw_http.ts";

/** What the token holder saw. */
export interface AttackOutcome {
  /** One entry per request of the token holder: status (0 for no answer) and milliseconds to the whole answer. */
  probes: { status: number; ms: number }[];
  /** Attack connections the node closed (and the attacker opened again). */
  reopened: number;
}

/** The token holder's pause between two probes. */
export const PROBE_GAP_MS = 250;

/**
 * The fewest probes an attack of `seconds` makes when every one is answered
 * just within the second the tests allow: more says the token holder kept
 * asking throughout, whatever the machine's load.
 */
export function fewestProbes(seconds: number): number {
  return Math.floor((seconds * 1000) / (PROBE_GAP_MS + 1000));
}

/** Runs the attack against the node on `port` for `seconds`, asking as the holder of `token` meanwhile. */
export async function slowBodyAttack(
  port: number,
  options: { token: string; slug: string; seconds: number; sockets?: number },
): Promise<AttackOutcome> {
  const host = `127.0.0.1:${port}`;
  const paths = [`/projects/${options.slug}/query`, "/ui/login"];
  const live = new Set<OpenSocket>();
  let stopped = false;
  let reopened = 0;
  const attack = async (path: string): Promise<void> => {
    while (!stopped) {
      let s: OpenSocket;
      try {
        s = await openSocket(port);
      } catch {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      live.add(s);
      const type = path === "/ui/login" ? "application/x-www-form-urlencoded" : "application/json";
      s.send(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: 60000\r\n\r\nt`);
      const drip = setInterval(() => s.send("t"), 20_000);
      await s.closed;
      clearInterval(drip);
      live.delete(s);
      if (!stopped) reopened++;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const attackers = Array.from({ length: options.sockets ?? 64 }, (_, i) => attack(paths[i % 2]));
  // The attack settles: every slot is taken and the first connections are past the node's patience.
  await new Promise((r) => setTimeout(r, 1500));
  const probes: AttackOutcome["probes"] = [];
  const until = Date.now() + options.seconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const answer = await rawRequest(
      port,
      `GET /projects/${options.slug}/data?limit=1 HTTP/1.1\r\nHost: ${host}\r\n` +
        `Authorization: Bearer ${options.token}\r\nConnection: close\r\n\r\n`,
      3000,
    ).catch(() => ({ status: 0 }));
    probes.push({ status: answer.status, ms: Math.round(performance.now() - started) });
    await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
  }
  stopped = true;
  for (const s of live) s.destroy();
  await Promise.all(attackers);
  return { probes, reopened };
}
