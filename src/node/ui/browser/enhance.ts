/**
 * What the script adds to a page drawn by the views (by the node, or by the
 * script itself): the filter row's value box off for operators without one,
 * forms that go at once when a choice is made (page size, facet, compare),
 * the suggested facets of a records page (the version's statistics, read
 * after the page is shown), and the MCP page's copy button.
 *
 * @module
 */
import { projectPath, readState, type Statistics, suggestions } from "../views/mod.ts";
import { api, h, mount } from "./dom.ts";

/** Operators that take no value. */
const VALUELESS = ["isnull", "notnull"];

function filterRow(view: Element): void {
  for (const op of view.querySelectorAll<HTMLSelectElement>("select.filter-op")) {
    const value = op.parentElement?.querySelector<HTMLInputElement>("input.filter-value");
    if (!value) continue;
    const sync = () => value.disabled = VALUELESS.includes(op.value);
    sync();
    op.addEventListener("change", sync);
  }
}

/** A choice that sends its form as soon as it is made (the button stays for keyboards, and without the script). */
function submitOnChange(view: Element, selector: string): void {
  const select = view.querySelector<HTMLSelectElement>(selector);
  select?.addEventListener("change", () => {
    if (select.value !== "") select.form?.requestSubmit();
  });
}

async function fillSuggestions(view: Element, slug: string, params: URLSearchParams): Promise<void> {
  const into = view.querySelector("#suggested-facets");
  if (!into || into.childNodes.length > 0) return;
  const s = readState(params);
  const version = into.getAttribute("data-version");
  try {
    const st = await api<Statistics>(projectPath(slug, "/statistics" + (version ? "?version=" + version : "")));
    const shown = suggestions(slug, { ...s, version: st.version }, st.suggestedFacets || []);
    into.replaceChildren(...shown.map((n) => mount(n)));
  } catch (_) {
    // no statistics for this version: no suggestions
  }
}

function copyButton(view: Element): void {
  const row = view.querySelector("#copy-row");
  const config = view.querySelector("#mcp-config");
  if (!row || !config || row.childNodes.length > 0) return;
  const text = config.textContent ?? "";
  const status = h("span", { class: "muted", role: "status" });
  const manual = () => {
    getSelection()?.selectAllChildren(config);
    status.textContent = "Selected: copy it with Ctrl+C.";
  };
  const copied = () => status.textContent = "Copied.";
  const copy = () => navigator.clipboard ? navigator.clipboard.writeText(text).then(copied, manual) : manual();
  row.replaceChildren(h("button", { type: "button", id: "copy", on: { click: copy }, text: "Copy" }), status);
}

/** Adds the script's part to `view`, a page `name` of project `slug` (when it is one) with `params`. */
export function enhance(view: Element, name: string, slug: string | undefined, params: URLSearchParams): void {
  filterRow(view);
  submitOnChange(view, "#page-size");
  submitOnChange(view, "#add-facet");
  if (name === "data" && slug) fillSuggestions(view, slug, params);
  if (name === "mcp") copyButton(view);
}
