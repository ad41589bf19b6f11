/**
 * The records table of a view: headers that sort (ascending first, then
 * descending, the sorted one marked), a filter row (an operator and a value
 * per column, fields of the view's form: `_op.COLUMN` and `_value.COLUMN`)
 * and rows whose number links to the record's own page.
 *
 * @module
 */
import type { DataPage } from "../../../wire/mod.ts";
import { h, type VNode } from "./html.ts";
import { cell, fieldOf } from "./common.ts";
import { count } from "./format.ts";
import { dataHref, type Filter, OPS, recordHref, valueless, type ViewState, withState } from "./state.ts";

/**
 * The sort a click on the header of `column` asks for: ascending, or
 * descending when it is sorted ascending.
 *
 * @example
 * ```ts
 * import { nextSort } from "./data_table.ts";
 * import { readState } from "./state.ts";
 * nextSort(readState(new URLSearchParams("sort=name")), "name"); // { column: "name", desc: true }
 * ```
 */
export function nextSort(s: ViewState, column: string): ViewState["sort"] {
  const again = s.sort !== null && s.sort.column === column && !s.sort.desc;
  return { column, desc: again };
}

function headCell(slug: string, s: ViewState, column: string, type: string): VNode {
  const sorted = s.sort && s.sort.column === column ? s.sort : null;
  const next = nextSort(s, column);
  const href = dataHref(slug, withState(s, { sort: next, offset: 0 }));
  return h("th", {
    scope: "col",
    "data-column": column,
    "aria-sort": sorted ? (sorted.desc ? "descending" : "ascending") : null,
  }, [
    h("a", { class: "sort", href, title: "Sort by " + column + (next && next.desc ? ", descending" : "") }, [
      column,
      sorted ? h("span", { class: "arrow", "aria-hidden": "true", text: sorted.desc ? " ▼" : " ▲" }) : null,
    ]),
    h("span", { class: "type", text: type }),
  ]);
}

function filterCell(column: string, first: Filter | undefined): VNode {
  const chosen = first ? first.op : "";
  const options = [{ op: "", label: "—" }, ...OPS];
  if (first && !OPS.some((o) => o.op === first.op)) options.push({ op: first.op, label: first.op });
  const op = h(
    "select",
    {
      form: "view-form",
      name: "_op." + column,
      class: "filter-op",
      "data-column": column,
      "aria-label": "Operator for " + column,
    },
    options.map((o) => h("option", { value: o.op, selected: o.op === chosen, text: o.label })),
  );
  const value = h("input", {
    form: "view-form",
    type: "text",
    name: "_value." + column,
    class: "filter-value",
    "data-column": column,
    "aria-label": "Value for " + column,
    placeholder: "value",
    value: first && !valueless(first.op) ? first.value : "",
    disabled: valueless(chosen),
  });
  return h("td", { class: "filter" }, [op, value]);
}

/** The table `#records` of `page` (the view `s` of `slug`), headed by `columns` and their `types`. */
export function recordsTable(
  slug: string,
  s: ViewState,
  columns: { names: string[]; types: string[] },
  page: DataPage,
): VNode {
  const { names, types } = columns;
  const head = h("tr", { class: "head" }, [
    h("th", { scope: "col", class: "rownum", title: "Record number in this view", text: "#" }),
    ...names.map((c, i) => headCell(slug, s, c, types[i])),
  ]);
  const filters = h("tr", { class: "filters" }, [
    h("td", { class: "rownum" }),
    ...names.map((c) => filterCell(c, s.filters.find((f) => f.column === c))),
  ]);
  const body = page.records.map((r, i) =>
    h("tr", {}, [
      h("td", { class: "rownum" }, [
        h("a", {
          href: recordHref(slug, s, s.offset + i),
          title: "This record on its own page",
          text: count(s.offset + i + 1),
        }),
      ]),
      ...names.map((c, j) => cell(fieldOf(r, c), types[j])),
    ])
  );
  return h("div", { class: "table-wrap" }, [
    h("table", { id: "records", class: "records" }, [h("thead", {}, [head, filters]), h("tbody", {}, body)]),
  ]);
}
