/**
 * The browser interface's entry, bundled into `/ui/app.js`: the hash router
 * and the navigation bar around the views.
 *
 * Views live in the URL's fragment: `#/` (projects), `#/mcp`,
 * `#/p/{slug}[?version=N]`, `#/p/{slug}/data?version=&offset=&limit=` and
 * `#/p/{slug}/sql[?version=N]`. When a view is drawn, `<main>` gets
 * `data-view` (its name) and `data-ready` (the fragment it shows).
 *
 * @module
 */
import { api, errorBox, h, type NodeFacts, session, SLUG } from "./dom.ts";
import { viewProject } from "./project.ts";
import { viewData, viewMcp, viewProjects, viewSql } from "./views.ts";

/** A view: its name and how to draw it into an element (answering the page title). */
interface Route {
  name: string;
  draw(view: HTMLElement): Promise<string> | string;
}

function missing(view: HTMLElement): string {
  view.appendChild(h("h1", { text: "Not found" }));
  view.appendChild(h("p", {}, ["This page does not exist. ", h("a", { href: "#/", text: "All projects" })]));
  return "Not found";
}

function parseHash(): Route {
  const raw = location.hash.replace(/^#/, "") || "/";
  const q = raw.indexOf("?");
  const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  const s = (q < 0 ? raw : raw.slice(0, q)).split("/").filter((x) => x !== "");
  if (s.length === 0) return { name: "projects", draw: viewProjects };
  if (s.length === 1 && s[0] === "mcp") return { name: "mcp", draw: viewMcp };
  if (s[0] === "p" && SLUG.test(s[1] || "")) {
    if (s.length === 2) return { name: "project", draw: (view) => viewProject(view, s[1], params) };
    if (s.length === 3 && s[2] === "data") return { name: "data", draw: (view) => viewData(view, s[1], params) };
    if (s.length === 3 && s[2] === "sql") return { name: "sql", draw: (view) => viewSql(view, s[1], params) };
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
  try {
    title = await r.draw(view);
  } catch (e) {
    view.appendChild(errorBox(e));
  }
  if (mine !== drawn) return;
  main.replaceChildren(view);
  document.title = (title ? title + " · " : "") + "svc node";
  for (const a of nav.querySelectorAll("a[data-view]")) {
    if (a.getAttribute("data-view") === r.name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  scrollTo(0, 0);
  main.setAttribute("data-view", r.name);
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
