/**
 * Metrics in the Prometheus text format: counters and histograms recorded
 * as things happen, gauges read at scrape time, and the exposition writer.
 *
 * Written here rather than taken from `prom-client`: that library keeps one
 * global registry, and its default collectors read Node's `cluster`,
 * `perf_hooks` and V8 heap spaces, which a node on Deno does not have the
 * same way; the format itself is small, and `promtool check metrics` checks
 * what this writes (tests/fleet).
 *
 * @example
 * ```ts
 * import { counter, renderFamilies } from "./mod.ts";
 * const served = counter("svc_pages_total", "Pages served.");
 * served.inc();
 * renderFamilies([served.family()]);
 * // "# HELP svc_pages_total Pages served.\n# TYPE svc_pages_total counter\nsvc_pages_total 1\n"
 * ```
 *
 * @module
 */
export {
  EXPOSITION_TYPE,
  type Family,
  formatValue,
  type Labels,
  type MetricType,
  renderFamilies,
} from "./exposition.ts";
export type { Sample } from "./exposition.ts";
export {
  type Counter,
  counter,
  type CounterSeries,
  gauge,
  type Histogram,
  histogram,
  type HistogramSeries,
  readCounter,
  SECONDS_BUCKETS,
} from "./instruments.ts";
