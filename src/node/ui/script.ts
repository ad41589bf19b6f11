/**
 * The browser interface's script, served at `/ui/app.js`: DOM helpers, the
 * JSON API client, the hash router and the navigation bar, around the views
 * (`views.ts`) and the README renderer (`markdown.ts`). Every piece of data
 * reaches the page through `textContent`, `createTextNode` or an attribute
 * set by name, never through markup; links are set only when they resolve
 * to http(s).
 *
 * Views live in the URL's fragment: `#/` (projects), `#/mcp`,
 * `#/p/{slug}[?version=N]`, `#/p/{slug}/data?version=&offset=&limit=` and
 * `#/p/{slug}/sql[?version=N]`. When a view is drawn, `<main>` gets
 * `data-view` (its name) and `data-ready` (the fragment it shows).
 *
 * @module
 */
import { MARKDOWN_JS } from "./markdown.ts";
import { VIEWS_JS } from "./views.ts";

const CORE_JS = String.raw`
const SLUG = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;
const main = document.getElementById("main");
const nav = document.getElementById("nav");
let node = {};
let seq = 0;

function safeHref(value) {
  try {
    const url = new URL(String(value), location.href);
    if (url.protocol === "http:" || url.protocol === "https:") return String(value);
  } catch (_) {
    // not a URL: no link
  }
  return "#";
}

function h(tag, props, children) {
  const el = document.createElement(tag);
  for (const key of Object.keys(props || {})) {
    const v = props[key];
    if (v === null || v === undefined || v === false) continue;
    if (key === "text") el.textContent = String(v);
    else if (key === "class") el.className = v;
    else if (key === "on") for (const ev of Object.keys(v)) el.addEventListener(ev, v[ev]);
    else if (key === "href") el.setAttribute("href", safeHref(v));
    else el.setAttribute(key, v === true ? "" : String(v));
  }
  for (const c of [].concat(children === undefined ? [] : children)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, init) {
  let res;
  try {
    res = await fetch(path, Object.assign({ credentials: "same-origin", headers: { accept: "application/json" } }, init));
  } catch (e) {
    throw new ApiError(0, "the node did not answer (" + e.message + ")");
  }
  let body = null;
  try {
    body = await res.json();
  } catch (_) {
    body = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, body && typeof body.error === "string" ? body.error : "HTTP " + res.status);
  }
  return body;
}

function errorBox(e) {
  const status = e instanceof ApiError && e.status ? e.status + ": " : "";
  const box = h("div", { class: "error-box" }, [
    h("p", { class: "error", role: "alert", text: status + (e && e.message ? e.message : String(e)) }),
  ]);
  if (e instanceof ApiError && e.status === 401) {
    box.appendChild(h("p", {}, [h("a", { href: "/", text: "Log in again" })]));
  }
  return box;
}

function intParam(params, name, fallback, min, max) {
  const raw = params.get(name);
  if (raw === null || !/^\d{1,15}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

function projectPath(slug, rest) {
  return "/projects/" + encodeURIComponent(slug) + (rest || "");
}

function cell(value, type) {
  if (value === null || value === undefined) return h("td", { class: "null", text: "null" });
  if (typeof value === "object") return h("td", { class: "mono", text: JSON.stringify(value) });
  const numeric = typeof value === "number" ||
    /^(integer|number|u?(tiny|small|big|huge)?int(eger)?|double|float|real|decimal.*)$/i.test(type || "");
  return h("td", { class: numeric ? "num" : null, text: String(value) });
}

function table(id, columns, types, rows) {
  const head = h("tr", {}, columns.map((c, i) => h("th", { scope: "col" }, [c, h("span", { class: "type", text: types[i] })])));
  const body = rows.map((row) => h("tr", {}, row.map((v, i) => cell(v, types[i]))));
  return h("div", { class: "table-wrap" }, [h("table", { id: id }, [h("thead", {}, [head]), h("tbody", {}, body)])]);
}

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const q = raw.indexOf("?");
  const params = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  const s = (q < 0 ? raw : raw.slice(0, q)).split("/").filter((x) => x !== "");
  if (s.length === 0) return { name: "projects", draw: (view) => viewProjects(view) };
  if (s.length === 1 && s[0] === "mcp") return { name: "mcp", draw: (view) => viewMcp(view) };
  if (s[0] === "p" && SLUG.test(s[1] || "")) {
    if (s.length === 2) return { name: "project", draw: (view) => viewProject(view, s[1], params) };
    if (s.length === 3 && s[2] === "data") return { name: "data", draw: (view) => viewData(view, s[1], params) };
    if (s.length === 3 && s[2] === "sql") return { name: "sql", draw: (view) => viewSql(view, s[1], params) };
  }
  return {
    name: "missing",
    draw: (view) => {
      view.appendChild(h("h1", { text: "Not found" }));
      view.appendChild(h("p", {}, ["This page does not exist. ", h("a", { href: "#/", text: "All projects" })]));
      return "Not found";
    },
  };
}

async function route() {
  const mine = ++seq;
  main.removeAttribute("data-ready");
  const r = parseHash();
  const view = h("div", { class: "view" });
  let title = null;
  try {
    title = await r.draw(view);
  } catch (e) {
    view.appendChild(errorBox(e));
  }
  if (mine !== seq) return;
  main.replaceChildren(view);
  document.title = (title ? title + " · " : "") + "svc node";
  for (const a of nav.querySelectorAll("a[data-view]")) {
    if (a.getAttribute("data-view") === r.name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  window.scrollTo(0, 0);
  main.setAttribute("data-view", r.name);
  main.setAttribute("data-ready", location.hash || "#/");
}

function drawNav() {
  const items = [
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

async function start() {
  try {
    node = await api("/healthz");
  } catch (_) {
    node = {};
  }
  drawNav();
  window.addEventListener("hashchange", route);
  await route();
}
`;

/**
 * The whole script: one strict IIFE holding the Markdown renderer, the core
 * and the views, which starts the app once the (deferred) script runs.
 *
 * @example
 * ```ts
 * import { APP_JS } from "./script.ts";
 * new Function(APP_JS); // compiles: the script is valid JavaScript
 * ```
 */
export const APP_JS = `"use strict";
(() => {
${MARKDOWN_JS}
${CORE_JS}
${VIEWS_JS}
start();
})();
`;
