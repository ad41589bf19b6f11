/**
 * Counters and histograms that code records into as things happen, kept by
 * their labels, and read as {@linkcode Family} values when scraped. Gauges
 * are not kept here: they are read from the state they describe at scrape
 * time.
 *
 * @module
 */
import type { Family, Labels, Sample } from "./exposition.ts";

/** One series of a counter, kept by a caller that adds to it often. */
export interface CounterSeries {
  /** Adds `by` (default 1). */
  inc(by?: number): void;
}

/** One series of a histogram, kept by a caller that observes often. */
export interface HistogramSeries {
  /** Counts one observation of `value`. */
  observe(value: number): void;
}

/** A value that only grows, per label set. */
export interface Counter {
  /** Adds `by` (default 1) to the series of `labels`. */
  inc(labels?: Labels, by?: number): void;
  /** The series of `labels`, made now if new (it then shows at 0). */
  series(labels: Labels): CounterSeries;
  /** The family with every series seen. */
  family(): Family;
}

/** A distribution of observed values in fixed buckets, per label set. */
export interface Histogram {
  /** Counts one observation of `value` in the series of `labels`. */
  observe(labels: Labels, value: number): void;
  /** The series of `labels`, made now if new. */
  series(labels: Labels): HistogramSeries;
  /** The family with every series seen (`_bucket`, `_sum`, `_count`). */
  family(): Family;
}

/** Latency buckets in seconds, from a millisecond to a minute. */
export const SECONDS_BUCKETS: readonly number[] = [
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
];

/** The key of a label set; labels are always given in the same order by their recorder. */
function keyOf(labels: Labels): string {
  return JSON.stringify(labels);
}

/**
 * A counter named `name`.
 *
 * @example
 * ```ts
 * import { counter } from "./instruments.ts";
 * const served = counter("svc_pages_total", "Pages served.");
 * served.inc({ project: "cities" });
 * served.family().samples; // [{ labels: { project: "cities" }, value: 1 }]
 * ```
 */
export function counter(name: string, help: string): Counter {
  const series = new Map<string, { labels: Labels; value: number }>();
  const seriesOf = (labels: Labels) => {
    const key = keyOf(labels);
    let found = series.get(key);
    if (!found) series.set(key, found = { labels, value: 0 });
    return found;
  };
  return {
    inc(labels = {}, by = 1) {
      seriesOf(labels).value += by;
    },
    series(labels) {
      const found = seriesOf(labels);
      return { inc: (by = 1) => void (found.value += by) };
    },
    family: () => ({ name, help, type: "counter", samples: [...series.values()].map((s) => ({ ...s })) }),
  };
}

interface HistogramState {
  labels: Labels;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram named `name` over `buckets` (upper bounds, ascending; `+Inf`
 * is implied).
 *
 * @example
 * ```ts
 * import { histogram } from "./instruments.ts";
 * const took = histogram("svc_work_seconds", "Time work took.", [0.1, 1]);
 * took.observe({}, 0.5);
 * took.family().samples.map((s) => `${s.suffix}${s.labels.le ?? ""}=${s.value}`);
 * // ["_bucket0.1=0", "_bucket1=1", "_bucket+Inf=1", "_sum=0.5", "_count=1"]
 * ```
 */
export function histogram(name: string, help: string, buckets: readonly number[]): Histogram {
  const series = new Map<string, HistogramState>();
  const bounds = [...buckets];
  const samplesOf = (s: HistogramState): Sample[] => {
    const out: Sample[] = [];
    let cumulative = 0;
    bounds.forEach((bound, i) => {
      cumulative += s.counts[i];
      out.push({ labels: { ...s.labels, le: String(bound) }, value: cumulative, suffix: "_bucket" });
    });
    out.push({ labels: { ...s.labels, le: "+Inf" }, value: s.count, suffix: "_bucket" });
    out.push({ labels: s.labels, value: s.sum, suffix: "_sum" });
    out.push({ labels: s.labels, value: s.count, suffix: "_count" });
    return out;
  };
  const stateOf = (labels: Labels): HistogramState => {
    const key = keyOf(labels);
    let s = series.get(key);
    if (!s) series.set(key, s = { labels, counts: new Float64Array(bounds.length), sum: 0, count: 0 });
    return s;
  };
  const observeIn = (s: HistogramState, value: number) => {
    let at = 0;
    while (at < bounds.length && value > bounds[at]) at++;
    if (at < bounds.length) s.counts[at]++;
    s.sum += value;
    s.count++;
  };
  return {
    observe(labels, value) {
      observeIn(stateOf(labels), value);
    },
    series(labels) {
      const state = stateOf(labels);
      return { observe: (value) => observeIn(state, value) };
    },
    family: () => ({ name, help, type: "histogram", samples: [...series.values()].flatMap(samplesOf) }),
  };
}

/**
 * A gauge family read now: one sample per entry of `values`.
 *
 * @example
 * ```ts
 * import { gauge } from "./instruments.ts";
 * gauge("svc_store_projects", "Projects in the store.", [[{}, 3]]).samples; // [{ labels: {}, value: 3 }]
 * ```
 */
export function gauge(name: string, help: string, values: readonly (readonly [Labels, number])[]): Family {
  return { name, help, type: "gauge", samples: values.map(([labels, value]) => ({ labels, value })) };
}

/**
 * A counter family read now (a total kept elsewhere, such as the page
 * cache's hits): one sample per entry of `values`.
 *
 * @example
 * ```ts
 * import { readCounter } from "./instruments.ts";
 * readCounter("svc_hits_total", "Hits.", [[{}, 7]]).type; // "counter"
 * ```
 */
export function readCounter(name: string, help: string, values: readonly (readonly [Labels, number])[]): Family {
  return { ...gauge(name, help, values), type: "counter" };
}
