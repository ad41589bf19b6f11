/**
 * Delta Sharing through the fleet's HAProxy, for the real readers
 * (tests/fleet/sharing_readers_test.ts with pandas, tests/sharing/spark/fleet_test.ts
 * with Spark): three readers, each on its own copy of one store and all with
 * one node token (so that a file URL one reader signed is good at the
 * others), behind the fleet's HAProxy configuration; a recipient made with
 * `svc share add` on the store before it was copied, its profile's endpoint
 * the balancer. HAProxy's log names the reader that answered each request.
 *
 * @module
 */
import { join } from "node:path";
import { cp, writeFile } from "node:fs/promises";
import { freePort } from "../support/cli_process.ts";
import { shareProfile } from "../support/readers.ts";
import { type Daemon, type FleetNode, startDaemon, startNode, stopNode, until } from "./_fleet.ts";
import { haproxyConfig, haproxyStats, type LoggedRequest, loggedRequests } from "./_haproxy.ts";

/** The readers' node token (all three hold it). */
export const FLEET_TOKEN = "fleet-reader-token-for-sharing-0123";

/** The running readers, their balancer and a recipient's profile. */
export interface SharingFleet {
  /** `http://127.0.0.1:PORT` of the balancer. */
  url: string;
  /** The readers, `r1`, `r2`, `r3`. */
  readers: FleetNode[];
  /** HAProxy, its log kept. */
  balancer: Daemon;
  /** The recipient's profile file (`svc share add ... --endpoint <balancer>`). */
  profile: string;
  /** The recipient's bearer token, from its profile. */
  recipient: string;
  /** Stops HAProxy and the readers. */
  stop(): Promise<void>;
}

/**
 * Fills a store under `dir` with `fill`, adds recipient `analysts` to it, copies it
 * for three readers, starts them and HAProxy in front, and resolves once
 * HAProxy has every reader up. What it started is stopped again when it fails.
 */
export async function startSharingFleet(dir: string, fill: (store: string) => Promise<void>): Promise<SharingFleet> {
  const base = join(dir, "base");
  await fill(base);
  const front = freePort();
  const url = `http://127.0.0.1:${front}`;
  const profile = await shareProfile(base, "analysts", join(dir, "analysts.share"), url);
  const readers: FleetNode[] = [];
  let balancer: Daemon | null = null;
  const stop = async () => {
    await balancer?.stop();
    await Promise.all(readers.map((node) => stopNode(node)));
  };
  try {
    for (const name of ["r1", "r2", "r3"]) {
      const store = join(dir, name);
      await cp(base, store, { recursive: true });
      readers.push(await startNode(name, freePort(), ["--store", store, "--token", FLEET_TOKEN]));
    }
    const statsPort = freePort();
    const config = join(dir, "haproxy.cfg");
    await writeFile(config, haproxyConfig(front, statsPort, readers));
    const started = startDaemon("haproxy", ["-db", "-f", config]);
    balancer = started;
    await until("HAProxy has every reader up", async () => {
      const rows = await haproxyStats(statsPort);
      return readers.every((r) => rows.find((row) => row.svname === r.name)?.status === "UP");
    }, 60_000).catch((e) => {
      throw new Error(`${e.message}\n${started.output()}`);
    });
    const recipient: string = JSON.parse(await Deno.readTextFile(profile)).bearerToken;
    return { url, readers, balancer: started, profile, recipient, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Whether a logged request is one whose answer names file URLs (a table's query or its changes). */
export function issuesUrls(request: LoggedRequest): boolean {
  return /\/delta-sharing\/shares\/.+\/tables\/[^/]+\/(query|changes)$/.test(request.path);
}

/** Whether a logged request fetched a file URL (a part). */
export function fetchesFile(request: LoggedRequest): boolean {
  return request.path.startsWith("/parts/");
}

/**
 * The requests HAProxy logged from the `from`th on, up to a `GET /readyz`
 * sent through it now and waited for in its log: so every request of a
 * client that has finished is in; and the index to start the next window at.
 */
export async function loggedSince(
  fleet: SharingFleet,
  from: number,
): Promise<{ requests: LoggedRequest[]; next: number }> {
  const mark = await fetch(`${fleet.url}/readyz`);
  await mark.body?.cancel();
  let end = -1;
  await until(
    "HAProxy logged the mark sent after the reader finished",
    () => {
      end = loggedRequests(fleet.balancer.output()).findIndex((r, i) => i >= from && r.path === "/readyz");
      return end >= 0;
    },
    30_000,
    50,
  );
  return { requests: loggedRequests(fleet.balancer.output()).slice(from, end), next: end + 1 };
}
