/**
 * `GET /metrics` read by the real tools: two `svc serve` nodes (one open, one
 * with a token that follows the first), whose `/metrics` must pass Debian's
 * `promtool check metrics` without a complaint, then Debian's Prometheus
 * scraping both every second (the token node with `credentials_file`, as
 * deploy/prometheus/prometheus.yml does) and evaluating
 * deploy/prometheus/alerts.yml: both targets `up`, a request counter that
 * moves when the test makes requests, every rule evaluated without error,
 * none firing on a healthy pair, every metric the rules read written by the
 * node, and every family the node writes listed in docs/operations.md.
 *
 * @module
 */
import { join } from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { freePort } from "../support/cli_process.ts";
import { citiesStore, tempDir } from "../support/store_fixture.ts";
import {
  bearer,
  type Daemon,
  type FleetNode,
  requireTools,
  ROOT,
  runTool,
  startDaemon,
  startNode,
  stopNode,
  until,
} from "./_fleet.ts";

const TOKEN = "fleet-metrics-token-0123456789";
const DATA_ROUTE = "/projects/{slug}/data";

/** The families the node documents (docs/operations.md, Fleet), each of which must be written. */
const FAMILIES = [
  "svc_build_info",
  "svc_ready",
  "svc_http_requests_total",
  "svc_http_request_duration_seconds",
  "svc_http_response_bytes_total",
  "svc_http_requests_in_flight",
  "svc_sql_running",
  "svc_sql_queued",
  "svc_sql_queries_total",
  "svc_sql_query_duration_seconds",
  "svc_page_cache_bytes",
  "svc_page_cache_max_bytes",
  "svc_page_cache_hits_total",
  "svc_page_cache_misses_total",
  "svc_read_copies",
  "svc_read_copies_bytes",
  "svc_kept_columns",
  "svc_kept_columns_bytes",
  "svc_memory_budget_bytes",
  "svc_memory_held_bytes",
  "svc_memory_refused_total",
  "svc_memory_waiting",
  "svc_follow_version",
  "svc_follow_versions_behind",
  "svc_follow_last_success_timestamp_seconds",
  "svc_follow_seconds_since_success",
  "svc_follow_failures_total",
  "svc_store_bytes",
  "svc_store_projects",
  "svc_store_versions",
  "svc_contributions_total",
  "svc_delta_sharing_files_total",
  "process_resident_memory_bytes",
  "process_open_fds",
  "process_max_fds",
  "process_start_time_seconds",
  "process_cpu_seconds_total",
];

async function get(node: FleetNode, path: string, token: string | null, init: RequestInit = {}): Promise<Response> {
  return await fetch(`${node.url}${path}`, { ...init, headers: { ...init.headers, ...bearer(token) } });
}

/** Some traffic of every kind the metrics count: pages, SQL that works and SQL that fails, a 404. */
async function traffic(node: FleetNode, token: string | null): Promise<void> {
  const query = (sql: string) =>
    get(node, "/projects/cities/query", token, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql }),
    });
  for (
    const res of [
      await get(node, "/projects/cities/data?limit=5", token),
      await get(node, "/projects/cities/data?offset=300&limit=5", token),
      await query("SELECT count(*) AS n FROM records"),
      await query("SELECT no_such_column FROM records"),
      await get(node, "/projects/nowhere/data", token),
    ]
  ) await res.body?.cancel();
}

/** The names of the families a `/metrics` body declares. */
function familiesOf(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((m) => m[1]);
}

/** Asks Prometheus' HTTP API for `query` now; the result vector. */
async function promQuery(prometheus: string, query: string): Promise<Json[]> {
  const res = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = await res.json();
  if (body.status !== "success") throw new Error(`${query}: ${JSON.stringify(body)}`);
  return body.data.result;
}

/** `{job: value}` of a query answered per job. */
async function byJob(prometheus: string, query: string): Promise<Record<string, number>> {
  const result = await promQuery(prometheus, query);
  return Object.fromEntries(result.map((r) => [r.metric.job, Number(r.value[1])]));
}

Deno.test({
  name: "fleet: /metrics passes promtool check metrics; Prometheus scrapes two nodes and evaluates alerts.yml",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await requireTools("promtool:prometheus", "prometheus:prometheus");
  const dir = await tempDir("svc-fleet-metrics-");
  const nodes: FleetNode[] = [];
  let prometheus: Daemon | null = null;
  try {
    await citiesStore(join(dir.path, "open"));
    const open = await startNode("open", 0, ["--store", join(dir.path, "open"), "--quiet"]);
    nodes.push(open);
    const follow = ["--follow", "cities", "--interval", "1", "--base-url", open.url, "--api-key", "agent-key"];
    const guarded = await startNode("token", 0, [
      "--store",
      join(dir.path, "token"),
      "--token",
      TOKEN,
      "--quiet",
      ...follow,
    ]);
    nodes.push(guarded);
    await until("the token node has synced cities", async () => {
      const res = await get(guarded, "/readyz", null);
      await res.body?.cancel();
      return res.status === 200;
    });

    // The format, by the tool Prometheus ships to check it.
    await traffic(open, null);
    await traffic(guarded, TOKEN);
    const refused = await get(guarded, "/metrics", null);
    await refused.body?.cancel();
    assertEquals(refused.status, 401, "the token node's metrics need its token");
    for (const [node, token] of [[open, null], [guarded, TOKEN]] as const) {
      const res = await get(node, "/metrics", token);
      assertEquals(res.status, 200);
      assertMatch(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      const checked = await runTool("promtool", ["check", "metrics"], { input: text });
      assertEquals(
        { code: checked.code, complaints: (checked.stdout + checked.stderr).trim() },
        { code: 0, complaints: "" },
        `promtool check metrics on ${node.name}'s /metrics`,
      );
      const written = familiesOf(text);
      assertEquals(FAMILIES.filter((f) => !written.includes(f)), [], `families missing on ${node.name}`);
      if (node === guarded) {
        assertMatch(text, /^svc_follow_version\{project="cities"\} 2$/m);
        assertMatch(text, /^svc_ready 1$/m);
      }
      console.log(`metrics: ${node.name}: ${written.length} families, ${text.split("\n").length} lines, promtool ok`);
    }

    // Every metric the alert rules read must be one the node writes, or the rule can never fire; every family the
    // node writes is in the table of docs/operations.md (Fleet, Metrics).
    const written = familiesOf(await (await get(open, "/metrics", null)).text());
    const docs = await readFile(join(ROOT, "docs/operations.md"), "utf8");
    const table = docs.slice(docs.indexOf("### Metrics"), docs.indexOf("### What to alert on"));
    assertEquals(written.filter((f) => !table.includes(`\`${f}`)), [], "families docs/operations.md does not list");
    const rules = await readFile(join(ROOT, "deploy/prometheus/alerts.yml"), "utf8");
    const read = new Set([...rules.matchAll(/\b(?:svc|process)_[a-z_]+\b/g)].map((m) => m[0]));
    const unknown = [...read].filter((name) =>
      !written.includes(name) && !written.includes(name.replace(/_(bucket|sum|count)$/, ""))
    );
    assertEquals(unknown, [], "metrics alerts.yml reads that no node writes");

    // A real Prometheus, scraping both every second.
    const port = freePort();
    await writeFile(join(dir.path, "scrape-token"), TOKEN + "\n");
    const config = join(dir.path, "prometheus.yml");
    await writeFile(
      config,
      `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - ${join(ROOT, "deploy/prometheus/alerts.yml")}
scrape_configs:
  - job_name: svc-open
    static_configs:
      - targets: ["127.0.0.1:${open.port}"]
  - job_name: svc-token
    authorization:
      credentials_file: scrape-token
    static_configs:
      - targets: ["127.0.0.1:${guarded.port}"]
`,
    );
    const checked = await runTool("promtool", ["check", "config", config]);
    assertEquals(checked.code, 0, checked.stdout + checked.stderr);
    prometheus = startDaemon("prometheus", [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir.path, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    const api = `http://127.0.0.1:${port}`;
    const running = prometheus;
    const failing = (e: Error) => Promise.reject(new Error(`${e.message}\n${running.output().slice(-4000)}`));
    await until("Prometheus is ready", async () => (await fetch(`${api}/-/ready`)).status === 200).catch(failing);
    await until("both targets are up", async () => {
      const up = await byJob(api, "up");
      return up["svc-open"] === 1 && up["svc-token"] === 1;
    }).catch(failing);
    const targets = (await (await fetch(`${api}/api/v1/targets`)).json()).data.activeTargets;
    assertEquals(
      targets.map((t: Json) => [t.labels.job, t.health, t.lastError]).sort(),
      [["svc-open", "up", ""], ["svc-token", "up", ""]],
    );

    const served = `sum by (job) (svc_http_requests_total{route="${DATA_ROUTE}", code="200"})`;
    let before: Record<string, number> = {};
    await until("Prometheus holds the data pages counted so far", async () => {
      before = await byJob(api, served);
      return before["svc-open"] >= 2 && before["svc-token"] >= 2;
    });
    await traffic(open, null);
    await traffic(guarded, TOKEN);
    let after: Record<string, number> = {};
    await until("the counter of data pages moved on both nodes", async () => {
      after = await byJob(api, served);
      return after["svc-open"] >= before["svc-open"] + 2 && after["svc-token"] >= before["svc-token"] + 2;
    }).catch(failing);
    console.log(`metrics: ${served} went from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);

    // The alert rules load and evaluate against real series, and a healthy pair fires none of them.
    let rulesSeen: Json[] = [];
    await until("every alert rule has been evaluated", async () => {
      const groups = (await (await fetch(`${api}/api/v1/rules`)).json()).data.groups;
      rulesSeen = groups.flatMap((g: Json) => g.rules);
      return rulesSeen.length > 0 && rulesSeen.every((r) => !r.lastEvaluation.startsWith("0001-"));
    }).catch(failing);
    const unhealthy = rulesSeen.filter((r) => r.health !== "ok").map((r) => `${r.name}: ${r.lastError}`);
    assertEquals(unhealthy, [], "rules that failed to evaluate");
    const firing = (await (await fetch(`${api}/api/v1/alerts`)).json()).data.alerts
      .filter((a: Json) => a.state === "firing")
      .map((a: Json) => a.labels.alertname);
    assertEquals(firing, [], "alerts firing on a healthy pair of nodes");
    assert(rulesSeen.length >= 10, `${rulesSeen.length} rules loaded`);
    console.log(`metrics: Prometheus evaluated ${rulesSeen.length} rules of alerts.yml, none failing, none firing`);
  } finally {
    await prometheus?.stop();
    await Promise.all(nodes.map((node) => stopNode(node)));
    await dir.cleanup();
  }
});
