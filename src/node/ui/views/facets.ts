/**
 * Facets of a view, as Datasette shows them: per faceted column its top
 * values under the view's filters and search, each a link that adds (or,
 * when set, removes) the filter `COLUMN__exact=VALUE` (`COLUMN__isnull` for
 * null); a form to facet by another column, and room for the version's
 * suggested facets.
 *
 * @module
 */
import { h, type VNode } from "./html.ts";
import { count } from "./format.ts";
import { dataHref, type Filter, MAX_FACETS, stateParams, type ViewState, withState } from "./state.ts";
import type { Facet } from "./types.ts";

/**
 * How a facet or statistics value reads on the page.
 *
 * @example
 * ```ts
 * import { valueText } from "./facets.ts";
 * valueText(null); // "null"
 * valueText({ a: 1 }); // '{"a":1}'
 * ```
 */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The filter that keeps the records of `column` holding `value`.
 *
 * @example
 * ```ts
 * import { valueFilter } from "./facets.ts";
 * valueFilter("country", null); // { column: "country", op: "isnull", value: "1" }
 * ```
 */
export function valueFilter(column: string, value: unknown): Filter {
  if (value === null || value === undefined) return { column, op: "isnull", value: "1" };
  return { column, op: "exact", value: typeof value === "object" ? JSON.stringify(value) : String(value) };
}

function same(a: Filter, b: Filter): boolean {
  return a.column === b.column && a.op === b.op && (a.op === "isnull" || a.value === b.value);
}

function facetPanel(slug: string, s: ViewState, column: string, facet: Facet | undefined): VNode {
  const remove = dataHref(slug, withState(s, { facets: s.facets.filter((c) => c !== column) }));
  const items = (facet?.values || []).map((v) => {
    const f = valueFilter(column, v.value);
    const selected = s.filters.some((g) => same(g, f));
    const filters = selected ? s.filters.filter((g) => !same(g, f)) : [...s.filters, f];
    return h("li", { class: selected ? "selected" : null }, [
      h("a", {
        href: dataHref(slug, withState(s, { filters, offset: 0 })),
        class: v.value === null ? "facet-value null" : "facet-value",
        "data-value": valueText(v.value),
        title: selected ? "Remove this filter" : "Only these records",
        text: valueText(v.value),
      }),
      " ",
      h("span", { class: "count", text: count(v.count) }),
    ]);
  });
  let body: VNode;
  if (!facet) body = h("p", { class: "muted", text: "No facet in the answer." });
  else if (items.length === 0) body = h("p", { class: "muted", text: "No values." });
  else body = h("ul", {}, items);
  return h("section", { class: "facet", "data-column": column }, [
    h("h3", {}, [
      h("span", { text: column }),
      h("a", { href: remove, class: "remove", title: "Stop faceting by " + column, "aria-label": "Remove", text: "×" }),
    ]),
    body,
    facet && facet.truncated ? h("p", { class: "muted", text: "… more values" }) : null,
  ]);
}

/**
 * Hidden fields carrying the view `s` (all but what the form itself asks):
 * a form of the page sends them along, so it changes one thing of the view.
 */
export function stateFields(s: ViewState, without: string[] = []): VNode[] {
  const fields: VNode[] = [];
  for (const [name, value] of stateParams(s, { facets: true, paging: true })) {
    if (!without.includes(name)) fields.push(h("input", { type: "hidden", name, value }));
  }
  return fields;
}

/** The form that adds a facet (`facet=COLUMN`): a choice of the columns left, and a button (the script needs none). */
function addFacet(slug: string, s: ViewState, columns: string[]): VNode | null {
  const left = columns.filter((c) => !s.facets.includes(c));
  if (left.length === 0 || s.facets.length >= MAX_FACETS) return null;
  return h("form", { method: "get", action: "/p/" + slug + "/data", id: "add-facet-form", class: "row" }, [
    ...stateFields(withState(s, { offset: 0 })),
    h("select", { id: "add-facet", name: "facet", "aria-label": "Facet by a column" }, [
      h("option", { value: "", text: "Facet by…" }),
      ...left.map((c) => h("option", { value: c, text: c })),
    ]),
    h("button", { type: "submit", class: "quiet", id: "add-facet-go", text: "Add" }),
  ]);
}

/** The suggested facets `suggested` not already shown, as links adding them (nothing when there are none). */
export function suggestions(slug: string, s: ViewState, suggested: string[]): (VNode | string)[] {
  const left = suggested.filter((c) => !s.facets.includes(c));
  if (left.length === 0 || s.facets.length >= MAX_FACETS) return [];
  return [
    h("span", { class: "muted", text: "Suggested facets: " }),
    ...left.flatMap((c, i) => [
      i > 0 ? ", " : "",
      h("a", {
        href: dataHref(slug, withState(s, { facets: [...s.facets, c] })),
        class: "suggested",
        "data-column": c,
        text: c,
      }),
    ]),
  ];
}

/**
 * The facets of the view `s` of `slug` as the page's answer gave them, with
 * a form to facet by another column and `suggested` facets (room for them,
 * `#suggested-facets`, when they are not known yet).
 */
export function facetBox(
  slug: string,
  s: ViewState,
  facets: Facet[] | undefined,
  columns: string[],
  suggested: string[] = [],
): VNode {
  const panels = s.facets.map((c) => facetPanel(slug, s, c, facets?.find((f) => f.column === c)));
  return h("div", { id: "facets" }, [
    h("div", { class: "row facet-controls" }, [
      addFacet(slug, s, columns),
      h("span", { id: "suggested-facets", "data-version": s.version }, suggestions(slug, s, suggested)),
    ]),
    panels.length ? h("div", { class: "facet-panels" }, panels) : null,
  ]);
}
