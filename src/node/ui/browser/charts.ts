/**
 * Small inline SVG charts of the statistics tab: a histogram of a number
 * column and bars of counted values. They are built with `createElementNS`
 * and numeric attributes only; every text from the data (a value, a bound)
 * goes in through `textContent`.
 *
 * @module
 */
import { h } from "./dom.ts";
import type { HistogramBin } from "./types.ts";

const NS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  children: SVGElement[] = [],
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const key of Object.keys(attrs)) el.setAttribute(key, String(attrs[key]));
  for (const c of children) el.appendChild(c);
  return el;
}

function titled(text: string): SVGTitleElement {
  const t = svg("title", {});
  t.textContent = text;
  return t;
}

/**
 * A number as the statistics show it: integers whole, others to four
 * significant digits.
 *
 * @example
 * ```ts
 * import { fmt } from "./charts.ts";
 * fmt(2 / 3); // "0.6667"
 * ```
 */
export function fmt(n: unknown): string {
  if (typeof n !== "number") return n === null || n === undefined ? "—" : String(n);
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(4)));
}

const WIDTH = 280;
const HEIGHT = 64;

/** A histogram of `bins` (`svg.chart.histogram`), each bar titled with its bounds and count. */
export function histogram(bins: HistogramBin[], label: string): SVGSVGElement {
  const max = Math.max(1, ...bins.map((b) => b.count));
  const w = WIDTH / Math.max(1, bins.length);
  const bars = bins.map((b, i) => {
    const height = b.count === 0 ? 0 : Math.max(1, Math.round((b.count / max) * (HEIGHT - 2)));
    return svg("rect", {
      class: "bar",
      x: (i * w + 0.5).toFixed(2),
      y: HEIGHT - height,
      width: Math.max(1, w - 1).toFixed(2),
      height,
      "data-count": b.count,
    }, [titled(fmt(b.from) + " – " + fmt(b.to) + ": " + b.count)]);
  });
  const chart = svg("svg", {
    class: "chart histogram",
    viewBox: "0 0 " + WIDTH + " " + HEIGHT,
    width: WIDTH,
    height: HEIGHT,
    role: "img",
  }, [titled(label), ...bars]);
  return chart;
}

/** One counted value: what it reads as, how many, and where a click goes (if anywhere). */
export interface Counted {
  /** The value as text. */
  label: string;
  /** Records holding it. */
  count: number;
  /** A fragment to go to, or null. */
  href: string | null;
  /** Whether the value is null (shown muted). */
  isNull?: boolean;
}

/** Counted values as bars (`ol.bars`): the value, a bar scaled to the largest count, the count. */
export function bars(items: Counted[], id?: string): HTMLElement {
  const max = Math.max(1, ...items.map((i) => i.count));
  return h(
    "ol",
    { class: "bars", id: id || null },
    items.map((item) => {
      const width = Math.round((item.count / max) * 120);
      const bar = svg("svg", {
        class: "chart bar",
        viewBox: "0 0 120 10",
        width: 120,
        height: 10,
        "aria-hidden": "true",
      }, [
        svg("rect", { class: "bar", x: 0, y: 0, width: Math.max(item.count > 0 ? 1 : 0, width), height: 10 }),
      ]);
      const cls = item.isNull ? "value null" : "value";
      const label = item.href
        ? h("a", { href: item.href, class: cls, text: item.label })
        : h("span", { class: cls, text: item.label });
      return h("li", {}, [label, bar, h("span", { class: "count", text: String(item.count) })]);
    }),
  );
}
