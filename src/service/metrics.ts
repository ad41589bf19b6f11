/**
 * What a node counts as it serves, for `GET /metrics`: requests by route,
 * method and status, their latency and the bytes sent; SQL queries by
 * outcome and their time; contributions by outcome and gate. Gauges (SQL
 * running and queued, the page cache, following, the store, the process)
 * are read at scrape time by `metrics_scrape.ts`.
 *
 * @module
 */
import {
  type Counter,
  counter,
  type CounterSeries,
  type Family,
  type Histogram,
  histogram,
  type HistogramSeries,
  SECONDS_BUCKETS,
} from "../metrics/mod.ts";
import type { ContributionView } from "../wire/mod.ts";

/** How a SQL query ended: answered, refused for a bad statement, refused for lack of a turn, or stopped at its deadline. */
export type SqlOutcome = "ok" | "error" | "refused" | "timeout";

/** The node's counters and histograms. */
export interface NodeMetrics {
  /** Counts an answered request: its route (a template such as `/projects/{slug}/data`), method, status and time. */
  answered(route: string, method: string, status: number, seconds: number): void;
  /** Counts bytes an answer on `route` took on the wire (head and body). */
  sent(route: string, bytes: number): void;
  /** The counter of bytes sent on `route`, as a function kept per route. */
  sender(route: string): (bytes: number) => void;
  /** Requests being answered now (their heads not yet sent). */
  inFlight: number;
  /** Counts a SQL query's outcome and time (waiting for a worker included). */
  query(outcome: SqlOutcome, seconds: number): void;
  /** Counts a contribution's final answer (replays of an Idempotency-Key are not counted again). */
  contribution(view: ContributionView): void;
  /** Counts the files a Delta Sharing `query` listed, and those its predicates let the node leave out. */
  sharingFiles(listed: number, skipped: number): void;
  /** The counted families, in a stable order. */
  families(): Family[];
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * A node's counters, all at zero.
 *
 * @example
 * ```ts
 * import { nodeMetrics } from "./metrics.ts";
 * const metrics = nodeMetrics();
 * metrics.answered("/healthz", "GET", 200, 0.001);
 * metrics.families()[0].samples; // [{ labels: { route: "/healthz", method: "GET", code: "200" }, value: 1 }]
 * ```
 */
export function nodeMetrics(): NodeMetrics {
  const requests: Counter = counter("svc_http_requests_total", "HTTP requests answered, by route, method and status.");
  const latency: Histogram = histogram(
    "svc_http_request_duration_seconds",
    "Time from a request's head to its answer's head, by route.",
    SECONDS_BUCKETS,
  );
  const bytes = counter("svc_http_response_bytes_total", "Bytes of answers sent (head and body), by route.");
  const queries = counter("svc_sql_queries_total", "SQL queries by outcome (ok, error, refused, timeout).");
  const queryTime = histogram(
    "svc_sql_query_duration_seconds",
    "Time of SQL queries, waiting for a worker included.",
    SECONDS_BUCKETS,
  );
  const contributions = counter(
    "svc_contributions_total",
    "Contributions decided, by outcome (merged, rejected) and the gate that decided (none when merged).",
  );
  const sharingFiles = counter(
    "svc_delta_sharing_files_total",
    "Files of Delta Sharing queries: listed, or skipped because their statistics rule out every row the predicates ask for.",
  );
  // The series a request touches, found with one lookup of a plain key (this runs on every request).
  const answers = new Map<string, { count: CounterSeries; time: HistogramSeries }>();
  const routes = new Map<string, (bytes: number) => void>();
  return {
    answered(route, method, status, seconds) {
      const key = `${route} ${method} ${status}`;
      let found = answers.get(key);
      if (!found) {
        const labels = { route, method: METHODS.has(method) ? method : "other", code: String(status) };
        answers.set(key, found = { count: requests.series(labels), time: latency.series({ route }) });
      }
      found.count.inc();
      found.time.observe(seconds);
    },
    sent(route, n) {
      this.sender(route)(n);
    },
    sender(route) {
      let found = routes.get(route);
      if (!found) {
        const series = bytes.series({ route });
        routes.set(route, found = (n: number) => series.inc(n));
      }
      return found;
    },
    inFlight: 0,
    query(outcome, seconds) {
      queries.inc({ outcome });
      queryTime.observe({}, seconds);
    },
    contribution(view) {
      const gate = view.status === "merged" ? "none" : String((view.verdict as { gate?: unknown }).gate ?? "other");
      contributions.inc({
        outcome: view.status === "merged" || view.status === "rejected" ? view.status : "other",
        gate,
      });
    },
    sharingFiles(listed, skipped) {
      if (listed > 0) sharingFiles.inc({ outcome: "listed" }, listed);
      if (skipped > 0) sharingFiles.inc({ outcome: "skipped" }, skipped);
    },
    families: () => [requests, latency, bytes, queries, queryTime, contributions, sharingFiles].map((m) => m.family()),
  };
}
