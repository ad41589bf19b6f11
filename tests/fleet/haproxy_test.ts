/**
 * A fleet behind a real balancer: the test origin signing its versions, a
 * mirror following it with `--verify`, three readers following the mirror
 * with `--upstream`, and Debian's HAProxy in front of the readers, checking
 * `GET /readyz` every half second. Eight clients read through HAProxy for a
 * minute (data pages at many offsets, SQL, whole exports) while one reader is
 * stopped and started again twice on a fresh, empty store (a Kubernetes
 * `emptyDir`): once with SIGTERM (the node's graceful stop) and once with
 * SIGKILL (a crash). No client may see a failed read, and every answer must
 * equal the mirror's answer to the same request. Then a new origin version
 * is published and the test waits for every reader to serve it.
 *
 * The balancer's part: `retry-on` resends a request whose connection was
 * refused or reset before any answer came (a stopped or killed reader), to
 * another reader (`option redispatch`), POSTs included (a query changes
 * nothing, so resending it is safe); a refused connection takes a reader out
 * at once and two failed checks within a second, and it comes back only
 * after two good `/readyz` answers, so a reader catching up on an empty store
 * gets no traffic until it holds the version.
 *
 * @module
 */
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { assert, assertEquals } from "../support/assert.ts";
import { freePort, runCli } from "../support/cli_process.ts";
import { spawnOrigin } from "../support/origin_process.ts";
import { trustFileText } from "../support/signing.ts";
import { citiesStore, citySql, StoreWriter, tempDir } from "../support/store_fixture.ts";
import {
  bearer,
  type Daemon,
  type FleetNode,
  requireTools,
  startDaemon,
  startNode,
  stopNode,
  until,
} from "./_fleet.ts";
import { backendRetries, haproxyConfig, haproxyStats, loggedRequests, serverStatus } from "./_haproxy.ts";
import { type Answer, answerOf, everyRead, generator, nextRead } from "./_reads.ts";

const SEED = "5a".repeat(32);
const SLUG = "cities";
const MIRROR_TOKEN = "fleet-mirror-token-0123456789";
const READER_TOKEN = "fleet-reader-token-0123456789";
const CLIENTS = 8;
const READ_MS = 60_000;
/** Records of the version the clients read (v3): deep offsets land in later parts and row groups. */
const RECORDS = 20_000;

Deno.test({
  name:
    "fleet: HAProxy over three readers hides a reader stopped and killed under load; every answer equals the mirror's",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await requireTools("haproxy:haproxy");
  const dir = await tempDir("svc-fleet-");
  const originStore = join(dir.path, "origin");
  await citiesStore(originStore);
  const writer = new StoreWriter(originStore);
  const part = Math.ceil(RECORDS / 4);
  const publish = (version: number) =>
    writer.version(SLUG, version, {
      parts: Array.from({ length: 4 }, (_, i) => ({ sql: citySql(i * part, part), rowGroupSize: 2_048 })),
    });
  await publish(3);
  const origin = await spawnOrigin(originStore, SEED);
  const nodes: FleetNode[] = [];
  let haproxy: Daemon | null = null;
  try {
    // The mirror pins the origin's key and takes only versions it signed.
    const mirrorTrust = join(dir.path, "mirror-trust.json");
    const pinned = await runCli(["trust", "add", "--base-url", origin.url], { SVC_TRUST_FILE: mirrorTrust });
    assertEquals(pinned.code, 0, pinned.stderr);
    const follow = ["--follow", SLUG, "--interval", "1", "--base-url", origin.url, "--api-key", "agent-key"];
    const mirror = await startNode(
      "mirror",
      0,
      ["--store", join(dir.path, "mirror"), "--token", MIRROR_TOKEN, "--verify", "--quiet", ...follow],
      { SVC_TRUST_FILE: mirrorTrust },
    );
    nodes.push(mirror);
    let seen = "";
    await until("the mirror is ready with v3, verified", async () => {
      const ready = await (await fetch(`${mirror.url}/readyz`, { headers: bearer(MIRROR_TOKEN) })).text();
      const status = (await (await fetch(`${mirror.url}/healthz`, { headers: bearer(MIRROR_TOKEN) })).json()).follow;
      seen = `${ready} ${JSON.stringify(status)}`;
      return JSON.parse(ready).ready && status[SLUG].version === 3 && status[SLUG].signature === "verified";
    }).catch((e) => {
      throw new Error(`${e.message}: ${seen}\n${mirror.serve.stderr()}`);
    });

    // Readers: each on a port fixed up front (HAProxy names it), each store fresh and empty, each
    // checking signatures itself against the origin's key pinned beforehand (as deploy/kubernetes
    // seeds the trust file from a ConfigMap).
    let stores = 0;
    const startReader = async (name: string, port: number) => {
      const store = join(dir.path, `reader-${++stores}`);
      const trust = `${store}-trust.json`;
      await writeFile(trust, await trustFileText(origin.url, SEED));
      return await startNode(name, port, [
        "--store",
        store,
        "--token",
        READER_TOKEN,
        "--quiet",
        "--verify",
        ...follow,
        "--upstream",
        mirror.url,
        "--upstream-token",
        MIRROR_TOKEN,
      ], { SVC_TRUST_FILE: trust });
    };
    const readers: FleetNode[] = [];
    for (const name of ["r1", "r2", "r3"]) {
      const reader = await startReader(name, freePort());
      readers.push(reader);
      nodes.push(reader);
    }

    const front = freePort();
    const statsPort = freePort();
    const config = join(dir.path, "haproxy.cfg");
    await writeFile(config, haproxyConfig(front, statsPort, readers));
    haproxy = startDaemon("haproxy", ["-db", "-f", config]);
    const balancer = haproxy;
    await until("HAProxy has every reader up", async () => {
      const rows = await haproxyStats(statsPort);
      return readers.every((r) => rows.find((row) => row.svname === r.name)?.status === "UP");
    }, 60_000).catch((e) => {
      throw new Error(`${e.message}\n${balancer.output()}`);
    });

    // The expected answers: each distinct read asked of the mirror, one at a time, before the load.
    const expected = new Map<string, Answer>();
    for (const read of everyRead()) {
      const init = { ...read.init, headers: { ...read.init?.headers, ...bearer(MIRROR_TOKEN) } };
      const answer = await answerOf(read.kind, await fetch(`${mirror.url}${read.path}`, init));
      assertEquals(answer.status, 200, `the mirror's answer to ${read.key}: ${answer.body.slice(0, 300)}`);
      expected.set(read.key, answer);
    }

    const counts = { page: 0, sql: 0, export: 0 };
    /** Reads that failed: what, from which reader, when (ms into the run), and whether the answer had begun. */
    const failures: { text: string; reader: string; at: number; begun: boolean }[] = [];
    let reading = true;
    let started = 0;
    let killedAt = Infinity;
    const client = async (id: number) => {
      const random = generator(1000 + id);
      while (reading) {
        const read = nextRead(random);
        const init = { ...read.init, headers: { ...read.init?.headers, ...bearer(READER_TOKEN) } };
        let res: Response | null = null;
        let text: string;
        try {
          res = await fetch(`http://127.0.0.1:${front}${read.path}`, init);
          const got = await answerOf(read.kind, res);
          if (got.status === 200 && got.body === expected.get(read.key)!.body) {
            counts[read.kind]++;
            continue;
          }
          text = `${got.status} ${
            got.status === 200 ? "the answer differs from the mirror's" : got.body.slice(0, 200)
          }`;
        } catch (e) {
          text = (e as Error).message;
        }
        const reader = res?.headers.get("x-fleet-reader") ?? "?";
        const at = Date.now() - started;
        failures.push({ text: `${read.key} (client ${id}, ${reader}, ${at} ms): ${text}`, reader, at, begun: !!res });
      }
    };

    // How long /readyz takes on a busy reader, asked directly: what the balancer's checks wait for.
    const readyLatency: number[] = [];
    const probe = (async () => {
      while (reading) {
        const t = performance.now();
        try {
          const res = await fetch(`${readers[0].url}/readyz`);
          await res.body?.cancel();
          readyLatency.push(performance.now() - t);
        } catch { /* counted by the balancer */ }
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    started = Date.now();
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    const restarts: string[] = [];
    try {
      // One reader stopped and started again twice, each time on a fresh store.
      const cycle = async (signal: Deno.Signal, atMs: number) => {
        await new Promise((r) => setTimeout(r, Math.max(0, started + atMs - Date.now())));
        const victim = readers[1];
        const retriesBefore = await backendRetries(statsPort);
        const t0 = Date.now();
        if (signal === "SIGKILL") killedAt = t0 - started;
        const status = await stopNode(victim, signal);
        const stopped = Date.now() - t0;
        await until(
          `HAProxy has ${victim.name} down`,
          async () => (await serverStatus(statsPort, victim.name)) !== "UP",
        );
        const t1 = Date.now();
        const reader = await startReader(victim.name, victim.port);
        readers[1] = reader;
        nodes.push(reader);
        await until(
          `${victim.name} is back in HAProxy`,
          async () => (await serverStatus(statsPort, victim.name)) === "UP",
        );
        const back = Date.now() - t1;
        const retried = (await backendRetries(statsPort)) - retriesBefore;
        restarts.push(
          `${signal} at ${Math.round((t0 - started) / 1000)} s: exited ${status.signal ?? status.code} in ` +
            `${stopped} ms; started again on an empty store, caught up and back in HAProxy ${back} ms later ` +
            `(at ${((Date.now() - started) / 1000).toFixed(1)} s); ` +
            `HAProxy retried ${retried} requests meanwhile`,
        );
      };
      await cycle("SIGTERM", 8_000);
      await cycle("SIGKILL", 32_000);
      await new Promise((r) => setTimeout(r, Math.max(0, started + READ_MS - Date.now())));
    } finally {
      reading = false;
      await Promise.all([...clients, probe]);
    }
    const seconds = (Date.now() - started) / 1000;

    const rows = await haproxyStats(statsPort);
    const backend = rows.find((r) => r.pxname === "readers" && r.svname === "BACKEND")!;
    const servers = rows.filter((r) => r.pxname === "readers" && /^r\d$/.test(r.svname));
    const retried: Record<string, number> = {};
    for (const { method, retries } of loggedRequests(balancer.output())) {
      if (retries !== "0") retried[method] = (retried[method] ?? 0) + 1;
    }
    const total = counts.page + counts.sql + counts.export;
    console.log(
      `fleet: ${total} reads in ${seconds.toFixed(1)} s by ${CLIENTS} clients ` +
        `(pages ${counts.page}, sql ${counts.sql}, exports ${counts.export}; ${expected.size} distinct), ` +
        `${failures.length} failed (see below)`,
    );
    for (const line of restarts) console.log(`fleet: ${line}`);
    readyLatency.sort((a, b) => a - b);
    const quantile = (q: number) =>
      readyLatency[Math.min(readyLatency.length - 1, Math.floor(q * readyLatency.length))];
    console.log(
      `fleet: GET /readyz on ${readers[0].name} under load, ${readyLatency.length} probes: median ` +
        `${quantile(0.5).toFixed(0)} ms, 99th percentile ${quantile(0.99).toFixed(0)} ms, max ${
          quantile(1).toFixed(0)
        } ms`,
    );
    console.log(
      `fleet: HAProxy retries ${backend.wretr}, redispatches ${backend.wredis}, ` +
        `connection errors ${backend.econ}, response errors ${backend.eresp}; per reader: ` +
        servers.map((s) => `${s.svname} ${s.stot} sessions, ${s.chkdown} check downs, ${s.wretr} retries`).join("; ") +
        `; requests sent more than once: ${JSON.stringify(retried)}`,
    );
    const changes = [...balancer.output().matchAll(/^\[WARNING\].*(Server readers\/.*)$/gm)].map((m) => m[1]);
    for (const change of changes) console.log(`fleet: HAProxy: ${change.replace(/\. \d+ active.*$/, "")}`);
    // An answer whose body was on its way when its reader was killed cannot be sent again by any balancer (its head
    // already reached the client). Such cuts, from r2 within 2 s of the SIGKILL, are shown and counted apart; any
    // other failure, at any time, fails the test.
    const cut = failures.filter((f) => f.begun && f.reader === "r2" && f.at >= killedAt && f.at < killedAt + 2_000);
    const failed = failures.filter((f) => !cut.includes(f));
    console.log(`fleet: answers cut mid-body by the SIGKILL: ${cut.length}${cut.map((f) => `\n  ${f.text}`).join("")}`);
    assertEquals(failed.slice(0, 20).map((f) => f.text), [], `${failed.length} reads failed`);
    assert(cut.length <= CLIENTS, "at most one answer a client was on its way when the reader was killed");
    assert(counts.page > 0 && counts.sql > 0 && counts.export > 0, "every kind of read was made");
    assertEquals(restarts.length, 2);
    const restarted = servers.find((s) => s.svname === "r2")!;
    assert(Number(restarted.chkdown) >= 2, "HAProxy saw r2 go down twice");

    // A new origin version reaches every reader: the mirror's interval, then a reader's.
    const published = Date.now();
    await publish(4);
    await until("every reader serves v4", async () => {
      for (const reader of readers) {
        const page = await (await fetch(`${reader.url}/projects/${SLUG}/data?limit=1`, {
          headers: bearer(READER_TOKEN),
        })).json();
        if (page.version !== 4) return false;
      }
      return true;
    }, 30_000);
    const reached = Date.now() - published;
    console.log(`fleet: v4 reached all three readers ${reached} ms after the origin published it (intervals 1 s)`);
    assert(reached < 2_000 + 10_000, "within both intervals plus 10 s");
  } finally {
    await haproxy?.stop();
    await Promise.all(nodes.map((node) => stopNode(node)));
    writer.close();
    await origin.stop();
    await dir.cleanup();
  }
});
