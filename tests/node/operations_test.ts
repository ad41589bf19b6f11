/**
 * `GET /readyz` and `GET /metrics` over sockets, on `svc serve` in a child
 * process: a following node is not ready before its first good sync and
 * says why, becomes ready with the version, and with `--ready-max-lag` falls
 * out of ready when its source is gone; the metrics need the token, move with
 * the requests, SQL and contributions they count, pass `promtool check
 * metrics`, and are off with `--no-metrics` or `SVC_METRICS=off`.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { startServe } from "../support/cli_process.ts";
import { startOrigin } from "../support/origin.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import { batch, NOTES, post } from "../support/local_project.ts";

const TOKEN = "operations-test-token-0123";
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function readyz(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}/readyz`, { headers });
  return { status: res.status, body: await res.json() };
}

/** The value of the sample `name{labels}` in `text`, or null. */
function sample(text: string, name: string, labels = ""): number | null {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(" ") + 1));
}

async function metrics(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: AUTH });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  return await res.text();
}

Deno.test("readyz: not ready before the first good sync, ready with the version, not ready once the source is gone past --ready-max-lag", async () => {
  const dir = await tempDir();
  const originStore = join(dir.path, "origin");
  const { v2 } = await citiesStore(originStore);
  const origin = await startOrigin({ store: originStore, seed: "cc".repeat(32) });
  let originOpen = true;
  const slowPart = (v2.manifest.parts as Json[])[0].sha256 as string;
  origin.fault(`/parts/cities/${slowPart}.parquet`, { delayMs: 3000 });
  const node = await startServe([
    ...["--store", join(dir.path, "node"), "--token", TOKEN, "--follow", "cities", "--interval", "1"],
    ...["--ready-max-lag", "3s", "--base-url", origin.url, "--api-key", "agent-key"],
  ]);
  try {
    await origin.waitFor(slowPart);
    const before = await readyz(node.url);
    assertEquals(before, { status: 503, body: { ready: false, reason: "1 of 1 followed projects not ready" } });
    const told = await readyz(node.url, AUTH);
    assertEquals(told.status, 503);
    assertEquals(told.body.projects, { cities: "first sync not done" });
    assertEquals(sample(await metrics(node.url), "svc_ready"), 0);

    await until("ready", async () => (await readyz(node.url)).status === 200 ? true : null);
    const page: Json = await (await fetch(`${node.url}/projects/cities/data?limit=1`, { headers: AUTH })).json();
    assertEquals(page.version, 2, "ready means the version is served");
    const synced = await metrics(node.url);
    assertEquals(sample(synced, "svc_follow_version", '{project="cities"}'), 2);
    assertEquals(sample(synced, "svc_follow_versions_behind", '{project="cities"}'), 0);
    assertEquals(sample(synced, "svc_ready"), 1);

    await origin.close();
    originOpen = false;
    const gone = await until("not ready again", async () => {
      const r = await readyz(node.url, AUTH);
      return r.status === 503 ? r.body : null;
    });
    assertMatch(gone.projects.cities, /^last good sync \d+ s ago, over the 3 s allowed \(last attempt failed: /);
    const health: Json = await (await fetch(`${node.url}/healthz`, { headers: AUTH })).json();
    assert(health.follow.cities.failures >= 1, JSON.stringify(health.follow.cities));
    assertEquals(health.follow.cities.version, 2, "the version held keeps serving");
    const failing = await metrics(node.url);
    assert(sample(failing, "svc_follow_failures_total", '{project="cities"}')! >= 1);
    assertEquals(sample(failing, "svc_follow_failing", '{project="cities"}'), 1);
    assert(sample(failing, "svc_follow_seconds_since_success", '{project="cities"}')! > 3);
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    if (originOpen) await origin.close();
    await dir.cleanup();
  }
});

Deno.test("metrics: behind the token, counting requests by route template, SQL and contributions, promtool-clean", async () => {
  const dir = await tempDir();
  const node = await startServe(["--store", dir.path, "--token", TOKEN]);
  try {
    assertEquals((await fetch(`${node.url}/metrics`)).status, 401);
    assertEquals((await post(node.url, "/projects", NOTES, AUTH)).status, 201);
    assertEquals((await post(node.url, "/projects/notes/contribute", batch(0), AUTH)).body.status, "merged");
    const bad = { records: [{ id: "not a number", text: 1 }] };
    assertEquals((await post(node.url, "/projects/notes/contribute", bad, AUTH)).body.status, "rejected");
    for (let i = 0; i < 3; i++) {
      await (await fetch(`${node.url}/projects/notes/data?limit=2&offset=${i}`, { headers: AUTH })).body?.cancel();
    }
    await (await fetch(`${node.url}/projects/no-such-project/data`, { headers: AUTH })).body?.cancel();
    await (await fetch(`${node.url}/etc/passwd`, { headers: AUTH })).body?.cancel();
    for (let i = 0; i < 2; i++) await (await fetch(`${node.url}/healthz`)).body?.cancel();
    assertEquals(
      (await post(node.url, "/projects/notes/query", { sql: "SELECT count(*) FROM records" }, AUTH)).status,
      200,
    );
    assertEquals(
      (await post(node.url, "/projects/notes/query", { sql: "SELECT nope FROM records" }, AUTH)).status,
      400,
    );
    const text = await metrics(node.url);
    assertEquals(sample(text, "svc_http_requests_total", '{route="/projects/{slug}/data",method="GET",code="200"}'), 3);
    assertEquals(sample(text, "svc_http_requests_total", '{route="/projects/{slug}/data",method="GET",code="404"}'), 1);
    assertEquals(sample(text, "svc_http_requests_total", '{route="unmatched",method="GET",code="404"}'), 1);
    assertEquals(sample(text, "svc_http_requests_total", '{route="/metrics",method="GET",code="401"}'), 1);
    assertEquals(sample(text, "svc_http_requests_total", '{route="/healthz",method="GET",code="200"}'), 2);
    assertEquals(sample(text, "svc_http_request_duration_seconds_count", '{route="/projects/{slug}/data"}'), 4);
    assert(sample(text, "svc_http_response_bytes_total", '{route="/projects/{slug}/data"}')! > 100);
    assertEquals(sample(text, "svc_sql_queries_total", '{outcome="ok"}'), 1);
    assertEquals(sample(text, "svc_sql_queries_total", '{outcome="error"}'), 1);
    assertEquals(sample(text, "svc_sql_query_duration_seconds_count"), 2);
    assert(sample(text, "svc_sql_queue_wait_seconds_total")! >= 0);
    assertEquals([sample(text, "svc_sql_running"), sample(text, "svc_sql_queued"), sample(text, "svc_sql_slots")], [
      0,
      0,
      2,
    ]);
    assertEquals(sample(text, "svc_contributions_total", '{outcome="merged",gate="none"}'), 1);
    assertEquals(sample(text, "svc_contributions_total", '{outcome="rejected",gate="schema"}'), 1);
    assertEquals(sample(text, "svc_store_projects"), 1);
    assertEquals(sample(text, "svc_store_versions"), 1);
    assert(sample(text, "svc_store_bytes")! > 0);
    assert(sample(text, "process_resident_memory_bytes")! > 10_000_000);
    // Deno lets only -A read /proc/self: a narrowed node leaves its descriptors out rather than guess.
    assertEquals(sample(text, "process_open_fds"), null);
    assert(!text.includes(dir.path), "no path of the host in the metrics");
    const promtool = new Deno.Command("promtool", {
      args: ["check", "metrics"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    })
      .spawn();
    const writer = promtool.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const checked = await promtool.output();
    const said = new TextDecoder().decode(checked.stdout) + new TextDecoder().decode(checked.stderr);
    assertEquals([checked.code, said], [0, ""], "promtool check metrics finds nothing");
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    await dir.cleanup();
  }
});

Deno.test("metrics: a node that may read /proc/self (--no-sandbox) counts its open descriptors", async () => {
  const dir = await tempDir();
  const node = await startServe(["--store", dir.path, "--token", TOKEN, "--no-sandbox"]);
  try {
    const text = await metrics(node.url);
    assert(sample(text, "process_open_fds")! > 3, "open descriptors");
    assert(sample(text, "process_max_fds")! > 3, "the descriptor limit");
  } finally {
    node.child.kill("SIGTERM");
    await node.status;
    await dir.cleanup();
  }
});

Deno.test("metrics: off with --no-metrics or SVC_METRICS=off (404); SVC_METRICS must say on or off", async () => {
  const dir = await tempDir();
  for (const [args, env] of [[["--no-metrics"], {}], [[], { SVC_METRICS: "off" }]] as const) {
    const node = await startServe(["--store", dir.path, "--token", TOKEN, ...args], env);
    try {
      const res = await fetch(`${node.url}/metrics`, { headers: AUTH });
      assertEquals(res.status, 404);
      assertMatch((await res.json()).error, /--no-metrics/);
      assertEquals((await readyz(node.url)).status, 200);
    } finally {
      node.child.kill("SIGTERM");
      await node.status;
    }
  }
  const refused = await startServe(["--store", dir.path], { SVC_METRICS: "maybe" }).then(
    () => null,
    (e: Error) => e.message,
  );
  assertMatch(refused ?? "", /SVC_METRICS must be on or off/);
  await dir.cleanup();
});
