/**
 * The statistics tab of a version (`#/p/{slug}/statistics?version=N`): per
 * column its nulls and distinct values (marked approximate when the node
 * says so), and by kind a histogram with min, max, mean and quantiles
 * (numbers), the top values and lengths (strings), true and false counts
 * (booleans), or the range (dates and times). Values link to the records
 * holding them.
 *
 * @module
 */
import type { ProjectDetail } from "../../../wire/mod.ts";
import { api, h, projectPath, tabs } from "./dom.ts";
import { bars, type Counted, fmt, histogram } from "./charts.ts";
import { valueFilter, valueText } from "./facets.ts";
import { dataHref, PAGE, type ViewState } from "./state.ts";
import type { ColumnStatistics, Statistics } from "./types.ts";

function viewOf(version: number, filters: ViewState["filters"], facets: string[] = []): ViewState {
  return { version, filters, q: "", sort: null, facets, limit: PAGE, offset: 0 };
}

function approx(st: Statistics, figure: string, text: string): HTMLElement {
  if (!st.approximate.includes(figure)) return h("span", { text });
  return h("span", { class: "approximate", title: "approximate", text: "≈ " + text });
}

function numberFigures(st: Statistics, c: ColumnStatistics): [string, Node | string][] {
  const q = c.quantiles || {};
  const quantiles = ["p05", "p25", "p50", "p75", "p95"] as const;
  return [
    ["Min", fmt(c.min)],
    ["Max", fmt(c.max)],
    ["Mean", fmt(c.mean)],
    ["Quantiles", approx(st, "quantiles", quantiles.map((k) => k + " " + fmt(q[k])).join(" · "))],
  ];
}

function counted(slug: string, st: Statistics, c: ColumnStatistics, value: unknown, count: number): Counted {
  const href = dataHref(slug, viewOf(st.version, [valueFilter(c.name, value)]));
  return { label: valueText(value), count, href, isNull: value === null };
}

function kindFigures(
  slug: string,
  st: Statistics,
  c: ColumnStatistics,
): { rows: [string, Node | string][]; chart: Node | null } {
  if (c.kind === "number") {
    const chart = c.histogram && c.histogram.length
      ? h("figure", { class: "histogram" }, [
        histogram(c.histogram, "Histogram of " + c.name),
        h("figcaption", { class: "axis" }, [h("span", { text: fmt(c.min) }), h("span", { text: fmt(c.max) })]),
      ])
      : null;
    return { rows: numberFigures(st, c), chart };
  }
  if (c.kind === "string") {
    const l = c.lengths;
    const rows: [string, Node | string][] = l
      ? [["Lengths", fmt(l.min) + "–" + fmt(l.max) + ", mean " + fmt(l.mean)]]
      : [];
    const top = (c.topValues || []).map((v) => counted(slug, st, c, v.value, v.count));
    return { rows, chart: top.length ? bars(top) : null };
  }
  if (c.kind === "boolean") {
    const items = [counted(slug, st, c, true, c.trueCount ?? 0), counted(slug, st, c, false, c.falseCount ?? 0)];
    if (c.nulls > 0) items.push(counted(slug, st, c, null, c.nulls));
    return { rows: [], chart: bars(items) };
  }
  if (c.kind === "temporal") return { rows: [["From", fmt(c.min)], ["To", fmt(c.max)]], chart: null };
  return { rows: [], chart: null };
}

function columnCard(slug: string, st: Statistics, c: ColumnStatistics): HTMLElement {
  const { rows, chart } = kindFigures(slug, st, c);
  const all: [string, Node | string][] = [
    ["Nulls", fmt(c.nulls)],
    ["Distinct", approx(st, "distinct", fmt(c.distinct))],
    ...rows,
  ];
  return h("section", { class: "stat", "data-column": c.name, "data-kind": c.kind }, [
    h("h3", {}, [h("span", { class: "name", text: c.name }), h("span", { class: "type", text: c.type })]),
    h("dl", { class: "facts" }, all.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", {}, [v])])),
    chart,
  ]);
}

/** `#/p/{slug}/statistics[?version=N]`: the statistics of a version's columns. */
export async function viewStatistics(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const raw = params.get("version");
  const version = raw !== null && /^\d{1,15}$/.test(raw) ? raw : null;
  const [p, st] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<Statistics>(projectPath(slug, "/statistics" + (version ? "?version=" + version : ""))),
  ]);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · statistics"]));
  view.appendChild(tabs(slug, st.version, "statistics"));
  const approximate = st.approximate.length ? " " + st.approximate.join(" and ") + " are approximate (≈)." : "";
  view.appendChild(h("p", {
    class: "muted",
    id: "stats-summary",
    text: "v" + st.version + " · " + st.records + " records · " + st.columns.length + " columns." + approximate,
  }));
  if (st.suggestedFacets.length) {
    view.appendChild(h("p", { id: "stats-facets" }, [
      h("span", { class: "muted", text: "Suggested facets: " }),
      ...st.suggestedFacets.flatMap((c, i) => [
        i > 0 ? ", " : "",
        h("a", { href: dataHref(slug, viewOf(st.version, [], [c])), class: "suggested", text: c }),
      ]),
    ]));
  }
  view.appendChild(h("div", { class: "stats", id: "stats" }, st.columns.map((c) => columnCard(slug, st, c))));
  return p.title + " · statistics";
}
