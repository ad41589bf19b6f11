/**
 * `GET /metrics`: the node's counters (see `metrics.ts`) and the gauges read
 * now from what they describe: readiness, SQL, the page cache, following,
 * the store (an object store's part cache too) and the process.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import process from "node:process";
import { type Family, gauge, type Labels, readCounter, renderFamilies } from "../metrics/mod.ts";
import { storeBytes } from "../store/mod.ts";
import { VERSION } from "../version.ts";
import type { NodeMetrics } from "./metrics.ts";
import { readinessOf } from "./readiness.ts";
import type { NodeState } from "./state.ts";

/** How long a walk of the store's files is reused: a scrape every few seconds must not walk a large store each time. */
const STORE_WALK_MS = 30_000;

const walks = new WeakMap<NodeState, { at: number; bytes: Promise<number> }>();

function walkedBytes(state: NodeState): Promise<number> {
  const last = walks.get(state);
  if (last && state.now() - last.at < STORE_WALK_MS) return last.bytes;
  // Over a bucket the folder is the part cache, whose footer images are sparse: what the disk holds is counted.
  const bytes = storeBytes(state.store.root, { allocated: state.store.remote });
  walks.set(state, { at: state.now(), bytes });
  return bytes;
}

/** A number from `/proc` text, or null off Linux or when it cannot be read. */
async function procNumber(path: string, pattern: RegExp): Promise<number | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  const found = text === null ? null : pattern.exec(text);
  return found ? Number(found[1]) : null;
}

async function openDescriptors(): Promise<number | null> {
  return await readdir("/proc/self/fd").then((names) => names.length, () => null);
}

/** Resident bytes of the SQL workers, read from `/proc` (empty off Linux). */
async function workersResident(pids: number[]): Promise<number | null> {
  let total = 0;
  for (const pid of pids) {
    const kib = await procNumber(`/proc/${pid}/status`, /^VmRSS:\s+(\d+) kB$/m);
    if (kib === null) return null;
    total += kib * 1024;
  }
  return total;
}

function optional(name: string, help: string, value: number | null): Family {
  return gauge(name, help, value === null ? [] : [[{}, value]]);
}

async function processFamilies(state: NodeState): Promise<Family[]> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return [
    gauge("process_resident_memory_bytes", "Resident memory of the node process in bytes.", [[{}, memory.rss]]),
    gauge("process_heap_bytes", "JavaScript heap in use, in bytes.", [[{}, memory.heapUsed]]),
    readCounter(
      "process_cpu_seconds_total",
      "CPU time of the node process (user and system), in seconds.",
      [[{}, (cpu.user + cpu.system) / 1e6]],
    ),
    optional("process_open_fds", "Open file descriptors of the node process.", await openDescriptors()),
    optional(
      "process_max_fds",
      "The limit of open file descriptors (soft).",
      await procNumber("/proc/self/limits", /^Max open files\s+(\d+)/m),
    ),
    gauge("process_start_time_seconds", "When the node started, in seconds since the epoch.", [[
      {},
      state.since.getTime() / 1000,
    ]]),
    optional(
      "svc_sql_workers_resident_memory_bytes",
      "Resident memory of the SQL worker processes together, in bytes.",
      await workersResident(state.sql.pids()),
    ),
  ];
}

function followFamilies(state: NodeState): Family[] {
  const statuses = Object.entries(state.follow?.status() ?? {});
  const now = state.now();
  const each = (value: (s: (typeof statuses)[number][1]) => number | null): [Labels, number][] =>
    statuses.flatMap(([project, s]) => {
      const v = value(s);
      return v === null ? [] : [[{ project }, v] as [Labels, number]];
    });
  const syncedAt = (s: { syncedAt: string | null }) => s.syncedAt === null ? null : Date.parse(s.syncedAt) / 1000;
  return [
    gauge("svc_follow_version", "The newest version held of a followed project.", each((s) => s.version)),
    gauge(
      "svc_follow_versions_behind",
      "Versions the source had beyond the one held, as of the last sync that reached it.",
      each((s) => s.behind),
    ),
    gauge("svc_follow_last_success_timestamp_seconds", "When the last good sync ended.", each(syncedAt)),
    gauge(
      "svc_follow_seconds_since_success",
      "Seconds since the last good sync ended.",
      each((s) => {
        const at = syncedAt(s);
        return at === null ? null : Math.max(0, now / 1000 - at);
      }),
    ),
    readCounter("svc_follow_failures_total", "Syncs that failed since the node started.", each((s) => s.failures)),
    gauge(
      "svc_follow_failing",
      "1 when the last sync of a followed project failed.",
      each((s) => s.error === null ? 0 : 1),
    ),
  ];
}

async function storeFamilies(state: NodeState): Promise<Family[]> {
  const projects = await state.store.projects();
  const versions = projects.reduce((n, p) => n + p.versions.count, 0);
  const incomplete = projects.reduce((n, p) => n + p.incomplete.length, 0);
  return [
    gauge("svc_store_projects", "Projects in the store.", [[{}, projects.length]]),
    gauge("svc_store_versions", "Whole versions across all projects.", [[{}, versions]]),
    gauge("svc_store_incomplete_versions", "Versions on disk not served because they are not whole.", [[
      {},
      incomplete,
    ]]),
    gauge("svc_store_bytes", "Bytes of the store's files (walked at most every 30 s).", [[
      {},
      await walkedBytes(state),
    ]]),
  ];
}

function servingFamilies(state: NodeState, metrics: NodeMetrics): Family[] {
  const sql = state.sql.stats();
  const cache = state.pages.cacheStats();
  const copies = state.readCopies.kept();
  const columns = state.keptColumns.kept();
  const cacheValue = (value: number | undefined) => cache === null ? [] : [[{}, value ?? 0] as [Labels, number]];
  return [
    gauge("svc_http_requests_in_flight", "Requests being answered now.", [[{}, metrics.inFlight]]),
    gauge("svc_sql_running", "SQL queries holding a worker now.", [[{}, sql.running]]),
    gauge("svc_sql_queued", "SQL queries waiting for a worker now.", [[{}, sql.queued]]),
    gauge("svc_sql_slots", "SQL queries that may run at once.", [[{}, sql.slots]]),
    readCounter(
      "svc_sql_queue_wait_seconds_total",
      "Seconds SQL queries spent waiting for a worker, all together.",
      [[{}, sql.waitedSeconds]],
    ),
    gauge("svc_page_cache_bytes", "Bytes of decoded row groups held for data pages.", cacheValue(cache?.bytes)),
    gauge("svc_page_cache_max_bytes", "Bytes the page cache may hold.", cacheValue(cache?.maxBytes)),
    readCounter("svc_page_cache_hits_total", "Data pages served from the cache.", cacheValue(cache?.hits)),
    readCounter("svc_page_cache_misses_total", "Data pages read from the parts.", cacheValue(cache?.misses)),
    gauge("svc_read_copies", "Versions of many small parts kept in one file each to count from.", [[
      {},
      copies.copies,
    ]]),
    gauge("svc_read_copies_bytes", "Bytes of the read copies, in the node's temporary folder.", [[{}, copies.bytes]]),
    gauge("svc_kept_columns", "Columns kept in memory as codes to count views over.", [[{}, columns.columns]]),
    gauge("svc_kept_columns_bytes", "Bytes of the kept columns.", [[{}, columns.bytes]]),
    gauge("svc_memory_budget_bytes", "The memory budget of the node and its SQL workers (--memory).", [[
      {},
      state.memory.budget,
    ]]),
    gauge("svc_memory_held_bytes", "Bytes the node and its SQL workers hold, as the memory gate counts them.", [[
      {},
      state.memoryGate.held(),
    ]]),
    readCounter("svc_memory_refused_total", "Requests answered 503 because the node was at its memory budget.", [[
      {},
      state.memoryGate.refused(),
    ]]),
    gauge("svc_memory_waiting", "Requests waiting at the memory budget for their turn.", [[
      {},
      state.memoryGate.waiting(),
    ]]),
  ];
}

/**
 * The text `GET /metrics` answers for the node over `state`, whose counters
 * are `metrics`.
 */
export async function metricsText(state: NodeState, metrics: NodeMetrics): Promise<string> {
  const ready = readinessOf(state, false).ready ? 1 : 0;
  return renderFamilies([
    gauge("svc_build_info", "The node's version, as a label; always 1.", [[{ version: VERSION }, 1]]),
    gauge("svc_ready", "1 when the node is ready for traffic (what GET /readyz says).", [[{}, ready]]),
    ...metrics.families(),
    ...servingFamilies(state, metrics),
    ...followFamilies(state),
    ...await storeFamilies(state),
    ...state.store.families(),
    ...await processFamilies(state),
  ]);
}
