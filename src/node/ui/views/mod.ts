/**
 * The interface's pages as markup, drawn alike by the node (as HTML, the
 * data in the page) and by the browser script (as DOM, from the JSON API):
 * which page an address is (`routes.ts`), how each is drawn, the markup
 * itself (`html.ts`) and the numbers' format (`format.ts`).
 *
 * @example
 * ```ts
 * import { pageRoute, toHtml } from "./mod.ts";
 * pageRoute("/p/cities/statistics", "?version=2").name; // "statistics"
 * ```
 *
 * @module
 */
export { escapeHtml, h, type Listeners, type Props, safeHref, textOf, toHtml, type VNode } from "./html.ts";
export { count, figure } from "./format.ts";
export { type Api, ApiError, errorBox, intParam, type NodeFacts, projectPath, SLUG, table, tabs } from "./common.ts";
export { type Drawn } from "./data.ts";
export { suggestions } from "./facets.ts";
export {
  drawPage,
  errorView,
  fromFragment,
  isPagePath,
  type PageContext,
  type PageRoute,
  pageRoute,
  PROJECT_PAGES,
} from "./routes.ts";
export { formView, readState, tabHref, viewOrder, withState } from "./state.ts";
export type { Statistics } from "./types.ts";
