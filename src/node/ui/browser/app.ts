/**
 * The browser interface's script, bundled into `/ui/app.js`. The node
 * answers every page as HTML holding its data (see `views/routes.ts` for
 * the addresses); the script enhances the page it is loaded on, then draws
 * the next pages itself from the JSON API with the same views: a link or a
 * form of the interface moves the address (`history.pushState`) and the
 * page drawn, the browser's back and forward draw again. Links of the
 * interface from before it had addresses (`#/p/cities/data?...`) are taken
 * to their address. When a page is drawn and enhanced, `<main>` gets
 * `data-view` (its name) and `data-ready` (its address: path and query).
 *
 * @module
 */
import {
  type Drawn,
  drawPage,
  errorView,
  formView,
  fromFragment,
  isPagePath,
  type PageRoute,
  pageRoute,
  viewOrder,
} from "../views/mod.ts";
import { api, mount, session } from "./dom.ts";
import { enhance } from "./enhance.ts";
import { viewSql } from "./sql.ts";
import type { NodeFacts } from "../views/mod.ts";

/** The address of the last page drawn without an error: where an error page's way back goes. */
let lastGood: string | null = null;

/** Counts the pages asked for: a page drawn after a newer one was asked for is dropped. */
let asked = 0;

const here = () => location.pathname + location.search;

async function draw(route: PageRoute, view: HTMLElement): Promise<{ title: string; failed: boolean }> {
  if (route.name === "sql") return { title: await viewSql(view, route.slug!, route.params), failed: false };
  const back = lastGood !== here() ? lastGood : null;
  let drawn: Drawn;
  let failed = route.name === "missing";
  try {
    drawn = failed
      ? errorView(route, null, back)
      : await drawPage(route, api, { node: session.node, origin: location.origin });
  } catch (e) {
    drawn = errorView(route, e, back);
    failed = true;
  }
  for (const node of drawn.body) if (node !== null) view.appendChild(mount(node));
  return { title: drawn.title, failed };
}

/** Marks the page `name` of `route` shown: the navigation bar, `<main>`'s markers, the way back. */
function shown(main: HTMLElement, route: PageRoute, failed: boolean): void {
  for (const a of document.querySelectorAll("#nav a[data-view]")) {
    if (a.getAttribute("data-view") === route.name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  if (!failed) lastGood = here();
  main.setAttribute("data-view", failed && route.name !== "missing" ? "error" : route.name);
  main.setAttribute("data-ready", here());
}

/** Draws the page of the current address into `main`. */
async function route(main: HTMLElement): Promise<void> {
  const mine = ++asked;
  main.removeAttribute("data-ready");
  const r = pageRoute(location.pathname, location.search);
  const view = document.createElement("div");
  view.className = "view";
  const { title, failed } = await draw(r, view);
  if (mine !== asked) return;
  main.replaceChildren(view);
  document.title = (title ? title + " · " : "") + "svc node";
  scrollTo(0, 0);
  if (!failed) enhance(view, r.name, r.slug, r.params);
  shown(main, r, failed);
}

/** Goes to `address` (path and query) and draws it; `replace` keeps the browser's history as it was. */
function go(main: HTMLElement, address: string, replace = false): void {
  if (address !== here()) {
    if (replace) history.replaceState(null, "", address);
    else history.pushState(null, "", address);
  }
  route(main);
}

/** The address a form of the interface asks for (its fields, in the view's own terms where it is a records page). */
function formAddress(form: HTMLFormElement): string {
  const url = new URL(form.action, location.href);
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string") params.append(name, value);
  const r = pageRoute(url.pathname, "");
  const viewed = r.name === "data" || r.name === "record";
  const query = viewed ? formView(params) ?? viewOrder(params) : params;
  const text = query.toString();
  return url.pathname + (text === "" ? "" : "?" + text);
}

function links(main: HTMLElement): void {
  document.addEventListener("click", (event) => {
    if (
      event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey
    ) return;
    const a = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!a || a.hasAttribute("download") || (a.target && a.target !== "_self")) return;
    const raw = a.getAttribute("href") ?? "";
    const old = fromFragment(raw);
    if (old === null && raw.startsWith("#")) return; // a place in this page: the browser's
    const url = new URL(old ?? raw, location.href);
    if (url.origin !== location.origin || !isPagePath(url.pathname)) return;
    event.preventDefault();
    go(main, url.pathname + url.search);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    if (event.defaultPrevented || form.method.toLowerCase() !== "get") return;
    const url = new URL(form.action, location.href);
    if (url.origin !== location.origin || !isPagePath(url.pathname)) return;
    event.preventDefault();
    go(main, formAddress(form));
  });
}

async function start(): Promise<void> {
  const main = document.getElementById("main");
  if (!main) return;
  try {
    session.node = await api<NodeFacts>("/healthz");
  } catch (_) {
    session.node = {};
  }
  links(main);
  addEventListener("popstate", () => route(main));
  addEventListener("hashchange", () => {
    const address = fromFragment(location.hash);
    if (address !== null) go(main, address, true);
  });
  const old = fromFragment(location.hash);
  if (old !== null) return go(main, old, true);
  // The node drew this page: the script only adds its part.
  const r = pageRoute(location.pathname, location.search);
  const view = main.getAttribute("data-view") ?? "";
  const failed = view === "error" || view === "missing";
  if (r.name === "sql" || view !== r.name) return route(main);
  if (!failed) enhance(main, r.name, r.slug, r.params);
  shown(main, r, failed);
}

start();
