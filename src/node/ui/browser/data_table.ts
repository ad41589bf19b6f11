/**
 * The records table of a view: headers that sort (ascending first, then
 * descending, the sorted one marked), a filter row (an operator and a value
 * per column) and rows whose number links to the record's own page.
 *
 * @module
 */
import type { DataPage } from "../../../wire/mod.ts";
import { cell, h } from "./dom.ts";
import { dataHref, type Filter, OPS, recordHref, valueless, type ViewState, withState } from "./state.ts";

/** The filter row's controls of one column. */
export interface FilterControl {
  /** The column. */
  column: string;
  /** Its operator (`""` for none). */
  op: HTMLSelectElement;
  /** Its value. */
  value: HTMLInputElement;
}

/** The sort a click on the header of `column` asks for: ascending, or descending when it is sorted ascending. */
export function nextSort(s: ViewState, column: string): ViewState["sort"] {
  const again = s.sort !== null && s.sort.column === column && !s.sort.desc;
  return { column, desc: again };
}

function headCell(slug: string, s: ViewState, column: string, type: string): HTMLElement {
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

function filterCell(column: string, first: Filter | undefined, controls: FilterControl[]): HTMLElement {
  const op = h("select", { form: "view-form", class: "filter-op", "data-column": column }, [
    h("option", { value: "", text: "—" }),
    ...OPS.map((o) => h("option", { value: o.op, text: o.label })),
  ]);
  op.setAttribute("aria-label", "Operator for " + column);
  if (first && !OPS.some((o) => o.op === first.op)) op.appendChild(h("option", { value: first.op, text: first.op }));
  op.value = first ? first.op : "";
  const value = h("input", { form: "view-form", type: "text", class: "filter-value", "data-column": column });
  value.setAttribute("aria-label", "Value for " + column);
  value.placeholder = "value";
  value.value = first && !valueless(first.op) ? first.value : "";
  value.disabled = valueless(op.value);
  op.addEventListener("change", () => value.disabled = valueless(op.value));
  controls.push({ column, op, value });
  return h("td", { class: "filter" }, [op, value]);
}

function fromControl(c: FilterControl): Filter | null {
  const value = c.value.value;
  const op = c.op.value || (value === "" ? "" : "exact");
  if (op === "") return null;
  if (valueless(op)) return { column: c.column, op, value: "1" };
  if (value === "" && op !== "exact" && op !== "not") return null;
  return { column: c.column, op, value };
}

/**
 * The filters of `s` as the filter row now says: the row edits the first
 * filter of each column, adds one where a column had none, and keeps the rest.
 */
export function filtersFrom(s: ViewState, controls: FilterControl[]): Filter[] {
  const byColumn = new Map(controls.map((c) => [c.column, c]));
  const seen = new Set<string>();
  const out: Filter[] = [];
  for (const f of s.filters) {
    const c = byColumn.get(f.column);
    if (!c || seen.has(f.column)) {
      out.push(f);
      continue;
    }
    seen.add(f.column);
    const edited = fromControl(c);
    if (edited) out.push(edited);
  }
  for (const c of controls) {
    if (seen.has(c.column)) continue;
    const added = fromControl(c);
    if (added) out.push(added);
  }
  return out;
}

/**
 * The table `#records` of `page` (the view `s` of `slug`), headed by
 * `columns` and their `types`; its filter row's controls go into `controls`.
 */
export function recordsTable(
  slug: string,
  s: ViewState,
  columns: { names: string[]; types: string[] },
  page: DataPage,
  controls: FilterControl[],
): HTMLElement {
  const { names, types } = columns;
  const head = h("tr", { class: "head" }, [
    h("th", { scope: "col", class: "rownum", title: "Record number in this view", text: "#" }),
    ...names.map((c, i) => headCell(slug, s, c, types[i])),
  ]);
  const filters = h("tr", { class: "filters" }, [
    h("td", { class: "rownum" }),
    ...names.map((c) => filterCell(c, s.filters.find((f) => f.column === c), controls)),
  ]);
  const body = page.records.map((r, i) =>
    h("tr", {}, [
      h("td", { class: "rownum" }, [
        h("a", {
          href: recordHref(slug, s, s.offset + i),
          title: "This record on its own page",
          text: s.offset + i + 1,
        }),
      ]),
      ...names.map((c, j) => cell(r[c], types[j])),
    ])
  );
  return h("div", { class: "table-wrap" }, [
    h("table", { id: "records", class: "records" }, [h("thead", {}, [head, filters]), h("tbody", {}, body)]),
  ]);
}
