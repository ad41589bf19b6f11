/**
 * The records of a version as a view (`#/p/{slug}/data?...`, see
 * `state.ts`): search, filters, facets, sort, paging, and downloads of the
 * view; each record links to its own page (`#/p/{slug}/record?...`).
 *
 * @module
 */
import type { DataPage, ProjectDetail } from "../../../wire/mod.ts";
import { api, cell, h, projectPath, tabs } from "./dom.ts";
import { type FilterControl, filtersFrom, recordsTable } from "./data_table.ts";
import { facetBox, suggestions } from "./facets.ts";
import { pager } from "./paging.ts";
import { versionRecords } from "./project.ts";
import {
  apiDataPath,
  dataHref,
  isView,
  opLabel,
  readState,
  recordHref,
  valueless,
  type ViewState,
  withState,
} from "./state.ts";
import type { Statistics, ViewPage } from "./types.ts";

/** The columns of a page: the schema's, then any extra key a record has. */
export function pageColumns(p: ProjectDetail, page: DataPage): { names: string[]; types: string[] } {
  const fields = (p.schemaDef && p.schemaDef.fields) || [];
  const names = fields.map((f) => f.name);
  const types = fields.map((f) => f.type);
  for (const r of page.records) {
    for (const k of Object.keys(r)) {
      if (!names.includes(k)) {
        names.push(k);
        types.push("extra");
      }
    }
  }
  return { names, types };
}

function searchForm(slug: string, s: ViewState, controls: FilterControl[]): HTMLElement {
  const q = h("input", { type: "search", id: "q", placeholder: "Search the text columns" });
  q.setAttribute("aria-label", "Search");
  q.value = s.q;
  const submit = (event: Event) => {
    event.preventDefault();
    location.hash = dataHref(slug, withState(s, { q: q.value.trim(), filters: filtersFrom(s, controls), offset: 0 }));
  };
  const plain = withState(s, { filters: [], q: "", sort: null, offset: 0 });
  return h("form", { id: "view-form", class: "row view-form", role: "search", on: { submit } }, [
    q,
    h("button", { type: "submit", id: "apply", text: "Apply" }),
    isView(s)
      ? h("a", { href: dataHref(slug, plain), id: "clear-view", text: "Clear filters, search and sort" })
      : null,
  ]);
}

function activeFilters(slug: string, s: ViewState): HTMLElement | null {
  if (s.filters.length === 0 && s.q === "") return null;
  const chip = (text: string, without: ViewState) =>
    h("li", { class: "chip" }, [
      h("span", { text }),
      h("a", { href: dataHref(slug, withState(without, { offset: 0 })), class: "remove", title: "Remove", text: "×" }),
    ]);
  const items = s.filters.map((f, i) =>
    chip(
      f.column + " " + opLabel(f.op) + (valueless(f.op) ? "" : " " + f.value),
      withState(s, { filters: s.filters.filter((_, j) => j !== i) }),
    )
  );
  if (s.q !== "") items.push(chip("search: " + s.q, withState(s, { q: "" })));
  return h("ul", { id: "active-filters", class: "chips" }, items);
}

const FORMATS: [string, string][] = [["csv", "CSV"], ["json", "JSON"], ["jsonl", "JSON lines"], ["parquet", "Parquet"]];

/** Links downloading the view `s` of `slug` (`page` set: only that page) in each format. */
export function downloads(slug: string, s: ViewState, what: string, page?: boolean): HTMLElement {
  const links = FORMATS.flatMap(([format, label], i) => [
    i > 0 ? " · " : "",
    h("a", { href: apiDataPath(slug, s, { format, page }), download: "", "data-format": format, text: label }),
  ]);
  return h("p", { id: "downloads", class: "downloads" }, [h("span", { class: "muted", text: what + ": " }), ...links]);
}

async function fillSuggestions(slug: string, s: ViewState, into: Element | null): Promise<void> {
  if (!into) return;
  try {
    const st = await api<Statistics>(projectPath(slug, "/statistics?version=" + s.version));
    into.replaceChildren(...suggestions(slug, s, st.suggestedFacets || []));
  } catch (_) {
    // no statistics for this version: no suggestions
  }
}

/** `#/p/{slug}/data?...`: a page of a view of a version's records. */
export async function viewData(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const asked = readState(params);
  const [p, page] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<ViewPage>(apiDataPath(slug, asked, { page: true })),
  ]);
  const s = withState(asked, { version: page.version });
  const total = typeof page.total === "number" ? page.total : isView(s) ? null : versionRecords(p, page.version);
  const columns = pageColumns(p, page);
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · records"]));
  view.appendChild(tabs(slug, page.version, "data"));
  const controls: FilterControl[] = [];
  view.appendChild(searchForm(slug, s, controls));
  const chips = activeFilters(slug, s);
  if (chips) view.appendChild(chips);
  const facets = facetBox(slug, s, page.facets, columns.names);
  view.appendChild(facets);
  view.appendChild(pager(slug, s, page, total));
  view.appendChild(recordsTable(slug, s, columns, page, controls));
  const whole = total === null ? "Download this view" : "Download this view (" + total + " records)";
  view.appendChild(downloads(slug, s, whole));
  fillSuggestions(slug, s, facets.querySelector("#suggested-facets"));
  return p.title + " · records";
}

/** `#/p/{slug}/record?version=&offset=N&...`: record N of a view, its fields listed down the page. */
export async function viewRecord(view: HTMLElement, slug: string, params: URLSearchParams): Promise<string> {
  const asked = readState(params);
  const one = withState(asked, { limit: 1, facets: [] });
  const [p, page] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<ViewPage>(apiDataPath(slug, one, { page: true })),
  ]);
  const s = withState(asked, { version: page.version });
  const at = s.offset;
  const total = typeof page.total === "number" ? page.total : isView(s) ? null : versionRecords(p, page.version);
  const record = page.records[0];
  view.appendChild(h("h1", {}, [h("a", { href: "#/p/" + slug, text: p.title }), " · record " + (at + 1)]));
  view.appendChild(tabs(slug, page.version, "data"));
  const where = "v" + page.version + " · record " + (at + 1) + (total !== null ? " of " + total : "") +
    (isView(s) ? " in this view" : "");
  const back = withState(s, { offset: Math.floor(at / s.limit) * s.limit });
  view.appendChild(h("div", { class: "pager" }, [
    h("a", {
      id: "prev-record",
      href: recordHref(slug, s, Math.max(0, at - 1)),
      "aria-disabled": at === 0 ? "true" : null,
      text: "← Previous record",
    }),
    h("span", { id: "record-at", text: where }),
    h("a", {
      id: "next-record",
      href: recordHref(slug, s, at + 1),
      "aria-disabled": page.next === null || (total !== null && at + 1 >= total) || !record ? "true" : null,
      text: "Next record →",
    }),
    h("a", { id: "back-to-view", href: dataHref(slug, back), text: "Back to the records" }),
  ]));
  if (!record) {
    view.appendChild(h("p", { class: "muted", id: "no-record", text: "No record at offset " + at + "." }));
    return p.title + " · record";
  }
  const { names, types } = pageColumns(p, page);
  const rows = names.map((c, i) =>
    h("tr", {}, [
      h("th", { scope: "row" }, [c, h("span", { class: "type", text: types[i] })]),
      cell(record[c], types[i]),
    ])
  );
  view.appendChild(h("div", { class: "table-wrap" }, [h("table", { id: "record", class: "record" }, [
    h("tbody", {}, rows),
  ])]));
  view.appendChild(downloads(slug, withState(one, { version: page.version }), "Download this record", true));
  return p.title + " · record " + (at + 1);
}
