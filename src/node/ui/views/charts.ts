/**
 * Small inline SVG charts of the statistics tab: a histogram of a number
 * column and bars of counted values, as markup with numeric attributes
 * only; every text from the data (a value, a bound) is text.
 *
 * A skewed column (populations: most records in the first bin) would be one
 * bar; when the largest bin holds twenty times or more what the smallest
 * filled one does, bar heights are on a log scale (the chart says so).
 *
 * @module
 */
import { h, type VNode } from "./html.ts";
import { count, figure } from "./format.ts";
import type { HistogramBin } from "./types.ts";

const WIDTH = 280;
const HEIGHT = 64;

/** How big the largest bin is against the smallest filled one before heights go on a log scale. */
const SKEW = 20;

/**
 * Whether `bins` are skewed enough for a log scale of heights.
 *
 * @example
 * ```ts
 * import { logScale } from "./charts.ts";
 * logScale([{ from: 0, to: 1, count: 9000 }, { from: 1, to: 2, count: 12 }]); // true
 * logScale([{ from: 0, to: 1, count: 90 }, { from: 1, to: 2, count: 12 }]); // false
 * ```
 */
export function logScale(bins: HistogramBin[]): boolean {
  const filled = bins.map((b) => b.count).filter((c) => c > 0);
  return filled.length > 1 && Math.max(...filled) >= SKEW * Math.min(...filled);
}

/** A bar's height in the chart: linear, or by the logarithm of the count. */
function barHeight(n: number, max: number, log: boolean): number {
  if (n === 0) return 0;
  const share = log ? Math.log1p(n) / Math.log1p(max) : n / max;
  return Math.max(1, Math.round(share * (HEIGHT - 2)));
}

/** A histogram of `bins` (`svg.chart.histogram`), each bar titled with its bounds and count. */
export function histogram(bins: HistogramBin[], label: string): VNode {
  const max = Math.max(1, ...bins.map((b) => b.count));
  const log = logScale(bins);
  const w = WIDTH / Math.max(1, bins.length);
  const bars = bins.map((b, i) => {
    const height = barHeight(b.count, max, log);
    return h("rect", {
      class: "bar",
      x: (i * w + 0.5).toFixed(2),
      y: HEIGHT - height,
      width: Math.max(1, w - 1).toFixed(2),
      height,
      "data-count": b.count,
    }, [h("title", { text: figure(b.from) + " – " + figure(b.to) + ": " + count(b.count) })]);
  });
  return h("svg", {
    class: "chart histogram",
    viewBox: "0 0 " + WIDTH + " " + HEIGHT,
    width: WIDTH,
    height: HEIGHT,
    role: "img",
    "data-scale": log ? "log" : "linear",
  }, [h("title", { text: label + (log ? " (bar heights on a log scale)" : "") }), ...bars]);
}

/** One counted value: what it reads as, how many, and where a click goes (if anywhere). */
export interface Counted {
  /** The value as text. */
  label: string;
  /** Records holding it. */
  count: number;
  /** A page to go to, or null. */
  href: string | null;
  /** Whether the value is null (shown muted). */
  isNull?: boolean;
}

/** Counted values as bars (`ol.bars`): the value, a bar scaled to the largest count, the count. */
export function bars(items: Counted[], id?: string): VNode {
  const max = Math.max(1, ...items.map((i) => i.count));
  return h(
    "ol",
    { class: "bars", id: id || null },
    items.map((item) => {
      const width = Math.round((item.count / max) * 120);
      const bar = h("svg", {
        class: "chart bar",
        viewBox: "0 0 120 10",
        width: 120,
        height: 10,
        "aria-hidden": "true",
      }, [h("rect", { class: "bar", x: 0, y: 0, width: Math.max(item.count > 0 ? 1 : 0, width), height: 10 })]);
      const cls = item.isNull ? "value null" : "value";
      const label = item.href
        ? h("a", { href: item.href, class: cls, text: item.label })
        : h("span", { class: cls, text: item.label });
      return h("li", {}, [label, bar, h("span", { class: "count", text: count(item.count) })]);
    }),
  );
}
