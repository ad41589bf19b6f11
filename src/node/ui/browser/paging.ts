/**
 * The pager of a view: previous and next, where the page stands, the page
 * size and a jump to a page number.
 *
 * @module
 */
import { h } from "./dom.ts";
import { dataHref, MAX_PAGE, type ViewState, withState } from "./state.ts";
import type { ViewPage } from "./types.ts";

/** The page sizes offered (the one shown is added when it is another). */
const SIZES = [10, 25, 50, 100, 200, 500, MAX_PAGE];

/** Whether a page follows `page` of the view `s`, out of `total` records. */
function hasNext(s: ViewState, page: ViewPage, total: number | null): boolean {
  if (page.next !== undefined) return page.next !== null;
  return page.count === s.limit && (total === null || s.offset + page.count < total);
}

function sizeControl(slug: string, s: ViewState): HTMLElement {
  const sizes = SIZES.includes(s.limit) ? SIZES : [...SIZES, s.limit].sort((a, b) => a - b);
  const select = h("select", { id: "page-size" }, sizes.map((n) => h("option", { value: String(n), text: String(n) })));
  select.value = String(s.limit);
  select.addEventListener("change", () => {
    const limit = Number(select.value);
    location.hash = dataHref(slug, withState(s, { limit, offset: Math.floor(s.offset / limit) * limit }));
  });
  return h("label", {}, [select, " per page"]);
}

function jumpControl(slug: string, s: ViewState, total: number | null): HTMLElement {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / s.limit));
  const number = h("input", { id: "page-number", type: "number", min: "1", max: pages === null ? null : pages });
  number.setAttribute("aria-label", "Page number");
  number.value = String(Math.floor(s.offset / s.limit) + 1);
  const submit = (event: Event) => {
    event.preventDefault();
    const wanted = Math.max(1, Math.min(pages ?? Number.MAX_SAFE_INTEGER, Math.floor(Number(number.value) || 1)));
    location.hash = dataHref(slug, withState(s, { offset: (wanted - 1) * s.limit }));
  };
  return h("form", { id: "jump", class: "row", on: { submit } }, [
    h("label", {}, ["Page ", number]),
    pages === null ? null : h("span", { id: "pages", text: "of " + pages }),
    h("button", { type: "submit", class: "quiet", id: "go", text: "Go" }),
  ]);
}

/** The pager of `page`, the view `s` of `slug` holding `total` records (null when unknown). */
export function pager(slug: string, s: ViewState, page: ViewPage, total: number | null): HTMLElement {
  const last = s.offset + page.count;
  const range = page.count === 0
    ? "no records at offset " + s.offset
    : "records " + (s.offset + 1) + "–" + last + (total !== null ? " of " + total : "");
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
