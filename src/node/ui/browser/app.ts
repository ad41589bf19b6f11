/**
 * The browser interface's entry, bundled into `/ui/app.js`: the hash router,
 * the navigation bar around the views, and the error page.
 *
 * Views live in the URL's fragment: `#/` (projects), `#/mcp`,
 * `#/p/{slug}[?version=N]`, `#/p/{slug}/data?...` (records: a view with
 * filters, search, sort, facets and paging, see `state.ts`),
 * `#/p/{slug}/record?...&offset=N` (one record of such a view),
 * `#/p/{slug}/statistics[?version=N]` and `#/p/{slug}/sql[?version=N&sql=...]`
 * (`#/projects/{slug}...` is taken for `#/p/{slug}...`). When a view is drawn,
 * `<main>` gets `data-view` (its name) and `data-ready` (the fragment it shows).
 *
 * @module
 */
import { api, ApiError, errorBox, h, type NodeFacts, session, SLUG } from "./dom.ts";
import { viewData, viewRecord } from "./data.ts";
import { viewProject } from "./project.ts";
import { viewSql } from "./sql.ts";
import { viewStatistics } from "./statistics.ts";
import { viewMcp, viewProjects } from "./views.ts";

/** A view: its name, its project, and how to draw it into an element (answering the page title). */
interface Route {
  name: string;
  slug?: string;
  params?: URLSearchParams;
  draw(view: HTMLElement): Promise<string> | string;
}

/** The fragment of the last view drawn without an error: where an error page's way back goes. */
let lastGood: string | null = null;

function wayBack(r: Route): HTMLElement {
  const here = location.hash || "#/";
  const version = r.params?.get("version");
  const q = version && /^\d{1,15}$/.test(version) ? "?version=" + version : "";
  return h("p", { class: "links way-back", id: "way-back" }, [
    lastGood && lastGood !== here ? h("a", { href: lastGood, id: "back", text: "← Back to the previous view" }) : null,
    r.slug && (r.name === "data" || r.name === "record") && r.params &&
      [...r.params.keys()].some((k) => k !== "version")
      ? h("a", { href: "#/p/" + r.slug + "/data" + q, id: "plain-records", text: "The records without filters" })
      : null,
    r.slug && r.name !== "project"
      ? h("a", { href: "#/p/" + r.slug, id: "to-project", text: "Project " + r.slug })
      : null,
    h("a", { href: "#/", id: "to-projects", text: "All projects" }),
  ]);
}

/** The error page of route `r` failing with `e`: what went wrong and the ways back. */
function errorView(view: HTMLElement, r: Route, e: unknown): string {
  view.replaceChildren();
  const status = e instanceof ApiError ? e.status : 0;
  const title = status === 404 ? "Not found" : status >= 400 && status < 500 ? "Cannot show this" : "Error";
  view.appendChild(h("h1", { id: "error-title", text: title }));
  view.appendChild(errorBox(e));
  view.appendChild(wayBack(r));
  return title;
}

function missing(view: HTMLElement): string {
  view.appendChild(h("h1", { id: "error-title", text: "Not found" }));
  view.appendChild(h("p", { text: "This page does not exist." }));
  view.appendChild(wayBack({ name: "missing", draw: missing }));
  return "Not found";
}

const PROJECT_VIEWS: Readonly<
  Record<string, (view: HTMLElement, slug: string, params: URLSearchParams) => Promise<string>>
> = {
  data: viewData,
  record: viewRecord,
  statistics: viewStatistics,
  sql: viewSql,
};

function parseHash(): Route {
  const raw = location.hash.replace(/^#/, "") || "/";
  const q = raw.indexOf("?");
  const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  const s = (q < 0 ? raw : raw.slice(0, q)).split("/").filter((x) => x !== "");
  if (s.length === 0) return { name: "projects", draw: viewProjects };
  if (s.length === 1 && s[0] === "mcp") return { name: "mcp", draw: viewMcp };
  if ((s[0] === "p" || s[0] === "projects") && SLUG.test(s[1] || "")) {
    const slug = s[1];
    if (s.length === 2) return { name: "project", slug, params, draw: (view) => viewProject(view, slug, params) };
    const draw = s.length === 3 && Object.hasOwn(PROJECT_VIEWS, s[2]) ? PROJECT_VIEWS[s[2]] : null;
    if (draw) return { name: s[2], slug, params, draw: (view) => draw(view, slug, params) };
  }
  return { name: "missing", draw: missing };
}

let drawn = 0;

async function route(main: HTMLElement, nav: HTMLElement): Promise<void> {
  const mine = ++drawn;
  main.removeAttribute("data-ready");
  const r = parseHash();
  const view = h("div", { class: "view" });
  let title: string | null = null;
  let failed = r.name === "missing";
  try {
    title = await r.draw(view);
  } catch (e) {
    title = errorView(view, r, e);
    failed = true;
  }
  if (mine !== drawn) return;
  if (!failed) lastGood = location.hash || "#/";
  main.replaceChildren(view);
  document.title = (title ? title + " · " : "") + "svc node";
  for (const a of nav.querySelectorAll("a[data-view]")) {
    if (a.getAttribute("data-view") === r.name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  scrollTo(0, 0);
  main.setAttribute("data-view", failed && r.name !== "missing" ? "error" : r.name);
  main.setAttribute("data-ready", location.hash || "#/");
}

function drawNav(nav: HTMLElement): void {
  const node = session.node;
  const items: HTMLElement[] = [
    h("a", { href: "#/", "data-view": "projects", text: "Projects" }),
    h("a", { href: "#/mcp", "data-view": "mcp", text: "MCP" }),
    h("span", { class: "spacer" }),
  ];
  if (node.readOnly) items.push(h("span", { class: "badge", text: "read-only" }));
  if (node.auth === "token") {
    items.push(h("form", { method: "post", action: "/ui/logout", id: "logout" }, [
      h("button", { type: "submit", class: "quiet", text: "Log out" }),
    ]));
  }
  nav.replaceChildren(...items);
}

async function start(): Promise<void> {
  const main = document.getElementById("main");
  const nav = document.getElementById("nav");
  if (!main || !nav) return;
  try {
    session.node = await api<NodeFacts>("/healthz");
  } catch (_) {
    session.node = {};
  }
  drawNav(nav);
  addEventListener("hashchange", () => route(main, nav));
  await route(main, nav);
}

start();
