/**
 * The records of a version as a view (`/p/{slug}/data?...`, see
 * `state.ts`): search, filters, facets, sort, paging, and downloads of the
 * view; each record links to its own page (`/p/{slug}/record?...`). The
 * search and the filter row are one form (`#view-form`, a GET of this page:
 * the node folds its fields into the view's address).
 *
 * @module
 */
import type { ProjectDetail } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import { type Api, cell, fieldOf, pageColumns, projectPath, records, tabs, versionRecords } from "./common.ts";
import { count } from "./format.ts";
import { recordsTable } from "./data_table.ts";
import { facetBox, stateFields } from "./facets.ts";
import { pager } from "./paging.ts";
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
import type { ViewPage } from "./types.ts";

/** A view drawn: its title and its markup. */
export interface Drawn {
  /** The page's title. */
  title: string;
  /** What goes in the page's `<main>`. */
  body: (VNode | string | null)[];
}

function searchForm(slug: string, s: ViewState): VNode {
  const plain = withState(s, { filters: [], q: "", sort: null, offset: 0 });
  // The filters ride along as fields; the filter row (`form="view-form"`) edits the first of each column.
  const kept = withState(s, { q: "", offset: 0 });
  return h("form", {
    method: "get",
    action: "/p/" + slug + "/data",
    id: "view-form",
    class: "row view-form",
    role: "search",
  }, [
    ...stateFields(kept),
    h("input", {
      type: "search",
      id: "q",
      name: "q",
      placeholder: "Search the text columns",
      "aria-label": "Search",
      value: s.q,
    }),
    h("button", { type: "submit", id: "apply", text: "Apply" }),
    isView(s)
      ? h("a", { href: dataHref(slug, plain), id: "clear-view", text: "Clear filters, search and sort" })
      : null,
  ]);
}

function activeFilters(slug: string, s: ViewState): VNode | null {
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
export function downloads(slug: string, s: ViewState, what: string, page?: boolean): VNode {
  const links = FORMATS.flatMap(([format, label], i) => [
    i > 0 ? " · " : "",
    h("a", { href: apiDataPath(slug, s, { format, page }), download: "", "data-format": format, text: label }),
  ]);
  return h("p", { id: "downloads", class: "downloads" }, [h("span", { class: "muted", text: what + ": " }), ...links]);
}

/** How many records the view holds: the page's `total`, else the version's count when the view is the whole version. */
function totalOf(p: ProjectDetail, page: ViewPage, s: ViewState): number | null {
  return typeof page.total === "number" ? page.total : isView(s) ? null : versionRecords(p, page.version);
}

/** `/p/{slug}/data?...`: a page of a view of a version's records. */
export async function dataView(api: Api, slug: string, params: URLSearchParams): Promise<Drawn> {
  const asked = readState(params);
  const [p, page] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<ViewPage>(apiDataPath(slug, asked, { page: true })),
  ]);
  const s = withState(asked, { version: page.version });
  const total = totalOf(p, page, s);
  const columns = pageColumns(p, page);
  const whole = total === null ? "Download this view" : "Download this view (" + records(total) + ")";
  return {
    title: p.title + " · records",
    body: [
      h("h1", {}, [h("a", { href: "/p/" + slug, text: p.title }), " · records"]),
      tabs(slug, page.version, "data"),
      searchForm(slug, s),
      activeFilters(slug, s),
      facetBox(slug, s, page.facets, columns.names),
      pager(slug, s, page, total),
      recordsTable(slug, s, columns, page),
      downloads(slug, s, whole),
    ],
  };
}

function recordPager(slug: string, s: ViewState, page: ViewPage, total: number | null, shown: boolean): VNode {
  const at = s.offset;
  const where = "v" + page.version + " · record " + count(at + 1) + (total !== null ? " of " + count(total) : "") +
    (isView(s) ? " in this view" : "");
  const back = withState(s, { offset: Math.floor(at / s.limit) * s.limit });
  return h("div", { class: "pager" }, [
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
      "aria-disabled": page.next === null || (total !== null && at + 1 >= total) || !shown ? "true" : null,
      text: "Next record →",
    }),
    h("a", { id: "back-to-view", href: dataHref(slug, back), text: "Back to the records" }),
  ]);
}

/** `/p/{slug}/record?version=&offset=N&...`: record N of a view, its fields listed down the page. */
export async function recordView(api: Api, slug: string, params: URLSearchParams): Promise<Drawn> {
  const asked = readState(params);
  const one = withState(asked, { limit: 1, facets: [] });
  const [p, page] = await Promise.all([
    api<ProjectDetail>(projectPath(slug)),
    api<ViewPage>(apiDataPath(slug, one, { page: true })),
  ]);
  const s = withState(asked, { version: page.version });
  const at = s.offset;
  const record = page.records[0];
  const head = [
    h("h1", {}, [h("a", { href: "/p/" + slug, text: p.title }), " · record " + count(at + 1)]),
    tabs(slug, page.version, "data"),
    recordPager(slug, s, page, totalOf(p, page, s), record !== undefined),
  ];
  if (!record) {
    const none = h("p", { class: "muted", id: "no-record", text: "No record at offset " + count(at) + "." });
    return { title: p.title + " · record", body: [...head, none] };
  }
  const { names, types } = pageColumns(p, page);
  const rows = names.map((c, i) =>
    h("tr", {}, [
      h("th", { scope: "row" }, [c, h("span", { class: "type", text: types[i] })]),
      cell(fieldOf(record, c), types[i]),
    ])
  );
  return {
    title: p.title + " · record " + count(at + 1),
    body: [
      ...head,
      h("div", { class: "table-wrap" }, [h("table", { id: "record", class: "record" }, [h("tbody", {}, rows)])]),
      downloads(slug, withState(one, { version: page.version }), "Download this record", true),
    ],
  };
}
