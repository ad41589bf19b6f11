/**
 * The pager of a view: previous and next, where the page stands, the page
 * size and a jump to a page number (two small forms, `_limit` and `_page`,
 * which work as forms without the script and at once with it).
 *
 * @module
 */
import { h, type VNode } from "./html.ts";
import { count } from "./format.ts";
import { stateFields } from "./facets.ts";
import { dataHref, MAX_PAGE, type ViewState, withState } from "./state.ts";
import type { ViewPage } from "./types.ts";

/** The page sizes offered (the one shown is added when it is another). */
const SIZES = [10, 25, 50, 100, 200, 500, MAX_PAGE];

/** Whether a page follows `page` of the view `s`, out of `total` records. */
function hasNext(s: ViewState, page: ViewPage, total: number | null): boolean {
  if (page.next !== undefined) return page.next !== null;
  return page.count === s.limit && (total === null || s.offset + page.count < total);
}

function sizeControl(slug: string, s: ViewState): VNode {
  const sizes = SIZES.includes(s.limit) ? SIZES : [...SIZES, s.limit].sort((a, b) => a - b);
  return h("form", { method: "get", action: "/p/" + slug + "/data", id: "page-size-form", class: "row" }, [
    ...stateFields(s, ["limit"]),
    h("label", {}, [
      h(
        "select",
        { id: "page-size", name: "_limit" },
        sizes.map((n) => h("option", { value: String(n), selected: n === s.limit, text: String(n) })),
      ),
      " per page",
    ]),
    h("button", { type: "submit", class: "quiet", id: "page-size-go", text: "Show" }),
  ]);
}

function jumpControl(slug: string, s: ViewState, total: number | null): VNode {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / s.limit));
  return h("form", { method: "get", action: "/p/" + slug + "/data", id: "jump", class: "row" }, [
    ...stateFields(s, ["offset"]),
    h("label", {}, [
      "Page ",
      h("input", {
        id: "page-number",
        name: "_page",
        type: "number",
        min: "1",
        max: pages === null ? null : pages,
        "aria-label": "Page number",
        value: String(Math.floor(s.offset / s.limit) + 1),
      }),
    ]),
    pages === null ? null : h("span", { id: "pages", text: "of " + count(pages) }),
    h("button", { type: "submit", class: "quiet", id: "go", text: "Go" }),
  ]);
}

/** The pager of `page`, the view `s` of `slug` holding `total` records (null when unknown). */
export function pager(slug: string, s: ViewState, page: ViewPage, total: number | null): VNode {
  const last = s.offset + page.count;
  const range = page.count === 0
    ? "no records at offset " + count(s.offset)
    : "records " + count(s.offset + 1) + "–" + count(last) + (total !== null ? " of " + count(total) : "");
  const more = hasNext(s, page, total);
  return h("div", { class: "pager" }, [
    h("a", {
      id: "prev",
      href: dataHref(slug, withState(s, { offset: Math.max(0, s.offset - s.limit) })),
      "aria-disabled": s.offset === 0 ? "true" : null,
      text: "← Previous",
    }),
    h("span", { id: "range", "data-offset": String(s.offset), text: "v" + page.version + " · " + range }),
    h("a", {
      id: "next",
      href: dataHref(slug, withState(s, { offset: more && typeof page.next === "number" ? page.next : last })),
      "aria-disabled": more ? null : "true",
      text: "Next →",
    }),
    sizeControl(slug, s),
    jumpControl(slug, s, total),
  ]);
}
