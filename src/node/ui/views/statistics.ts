/**
 * The statistics tab of a version (`/p/{slug}/statistics?version=N`): per
 * column its nulls and distinct values (marked approximate when the node
 * says so), and by kind a histogram with min, max, mean and quantiles
 * (numbers), the top values and lengths (strings), true and false counts
 * (booleans), or the range (dates and times). Values link to the records
 * holding them.
 *
 * @module
 */
import type { ProjectDetail } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import { type Api, projectPath, records, tabs } from "./common.ts";
import { bars, type Counted, histogram } from "./charts.ts";
import { count, figure } from "./format.ts";
import { valueFilter, valueText } from "./facets.ts";
import { dataHref, PAGE, type ViewState } from "./state.ts";
import type { ColumnStatistics, Statistics } from "./types.ts";
import type { Drawn } from "./data.ts";

function viewOf(version: number, filters: ViewState["filters"], facets: string[] = []): ViewState {
  return { version, filters, q: "", sort: null, facets, limit: PAGE, offset: 0 };
}

function approx(st: Statistics, name: string, text: string): VNode {
  if (!st.approximate.includes(name)) return h("span", { text });
  return h("span", { class: "approximate", title: "approximate", text: "≈ " + text });
}

function numberFigures(st: Statistics, c: ColumnStatistics): [string, VNode | string][] {
  const q = c.quantiles || {};
  const quantiles = ["p05", "p25", "p50", "p75", "p95"] as const;
  return [
    ["Min", figure(c.min)],
    ["Max", figure(c.max)],
    ["Mean", figure(c.mean)],
    ["Quantiles", approx(st, "quantiles", quantiles.map((k) => k + " " + figure(q[k])).join(" · "))],
  ];
}

function counted(slug: string, st: Statistics, c: ColumnStatistics, value: unknown, n: number): Counted {
  const href = dataHref(slug, viewOf(st.version, [valueFilter(c.name, value)]));
  return { label: valueText(value), count: n, href, isNull: value === null };
}

function numberChart(c: ColumnStatistics): VNode | null {
  if (!c.histogram || !c.histogram.length) return null;
  const chart = histogram(c.histogram, "Histogram of " + c.name);
  const log = chart.attrs["data-scale"] === "log";
  return h("figure", { class: "histogram" }, [
    chart,
    h("figcaption", { class: "axis" }, [h("span", { text: figure(c.min) }), h("span", { text: figure(c.max) })]),
    log ? h("figcaption", { class: "muted scale", text: "bar heights on a log scale (the column is skewed)" }) : null,
  ]);
}

function kindFigures(
  slug: string,
  st: Statistics,
  c: ColumnStatistics,
): { rows: [string, VNode | string][]; chart: VNode | null } {
  if (c.kind === "number") return { rows: numberFigures(st, c), chart: numberChart(c) };
  if (c.kind === "string") {
    const l = c.lengths;
    const rows: [string, VNode | string][] = l
      ? [["Lengths", figure(l.min) + "–" + figure(l.max) + ", mean " + figure(l.mean)]]
      : [];
    const top = (c.topValues || []).map((v) => counted(slug, st, c, v.value, v.count));
    return { rows, chart: top.length ? bars(top) : null };
  }
  if (c.kind === "boolean") {
    const items = [counted(slug, st, c, true, c.trueCount ?? 0), counted(slug, st, c, false, c.falseCount ?? 0)];
    if (c.nulls > 0) items.push(counted(slug, st, c, null, c.nulls));
    return { rows: [], chart: bars(items) };
  }
  if (c.kind === "temporal") return { rows: [["From", figure(c.min)], ["To", figure(c.max)]], chart: null };
  return { rows: [], chart: null };
}

function columnCard(slug: string, st: Statistics, c: ColumnStatistics): VNode {
  const { rows, chart } = kindFigures(slug, st, c);
  const all: [string, VNode | string][] = [
    ["Nulls", count(c.nulls)],
    ["Distinct", approx(st, "distinct", count(c.distinct))],
    ...rows,
  ];
  return h("section", { class: "stat", "data-column": c.name, "data-kind": c.kind }, [
    h("h3", {}, [h("span", { class: "name", text: c.name }), h("span", { class: "type", text: c.type })]),
    h("dl", { class: "facts" }, all.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", {}, [v])])),
    chart,
  ]);
}

/** `/p/{slug}/statistics[?version=N]`: the statistics of a version's columns. */
export async function statisticsView(api: Api, slug: string, params: URLSearchParams): Promise<Drawn> {
  const raw = params.get("version");
  const version = raw !== null && /^\d{1,15}$/.test(raw) ? raw : null;
  const [p, st] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<Statistics>(projectPath(slug, "/statistics" + (version ? "?version=" + version : ""))),
  ]);
  const approximate = st.approximate.length ? " " + st.approximate.join(" and ") + " are approximate (≈)." : "";
  const summary = "v" + st.version + " · " + records(st.records) + " · " + st.columns.length + " columns." +
    approximate;
  return {
    title: p.title + " · statistics",
    body: [
      h("h1", {}, [h("a", { href: "/p/" + slug, text: p.title }), " · statistics"]),
      tabs(slug, st.version, "statistics"),
      h("p", { class: "muted", id: "stats-summary", text: summary }),
      st.suggestedFacets.length
        ? h("p", { id: "stats-facets" }, [
          h("span", { class: "muted", text: "Suggested facets: " }),
          ...st.suggestedFacets.flatMap((c, i) => [
            i > 0 ? ", " : "",
            h("a", { href: dataHref(slug, viewOf(st.version, [], [c])), class: "suggested", text: c }),
          ]),
        ])
        : null,
      h("div", { class: "stats", id: "stats" }, st.columns.map((c) => columnCard(slug, st, c))),
    ],
  };
}
