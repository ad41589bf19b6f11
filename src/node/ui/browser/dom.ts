/**
 * What every view of the browser interface uses: the element builder
 * {@linkcode h} (data reaches the page only through `textContent`,
 * `createTextNode` or an attribute set by name, never through markup; links
 * are set only when they resolve to http(s)), the JSON API client
 * {@linkcode api}, tables, and what the node said of itself at start.
 *
 * @module
 */
import type { Health } from "../../../wire/mod.ts";

/** What `GET /healthz` said of the node: all of it for a token holder, less for others. */
export type NodeFacts = Partial<Health>;

/** The node's facts, filled once at start. */
export const session: { node: NodeFacts } = { node: {} };

/** A project slug, as the node's routes take it. */
export const SLUG = /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/;

/** `value` if it resolves to an http(s) URL, else `#`. */
export function safeHref(value: unknown): string {
  try {
    const url = new URL(String(value), location.href);
    if (url.protocol === "http:" || url.protocol === "https:") return String(value);
  } catch (_) {
    // not a URL: no link
  }
  return "#";
}

/** Properties of {@linkcode h}: `text`, `class`, `on` (listeners), `href`, or any attribute. */
export type Props = Record<string, unknown> & { on?: Record<string, (event: Event) => unknown> };

/** A child of {@linkcode h}: an element, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

function setProp(el: HTMLElement, key: string, v: unknown): void {
  if (v === null || v === undefined || v === false) return;
  if (key === "text") el.textContent = String(v);
  else if (key === "class") el.className = String(v);
  else if (key === "on") {
    const listeners = v as Record<string, (event: Event) => unknown>;
    for (const ev of Object.keys(listeners)) el.addEventListener(ev, listeners[ev]);
  } else if (key === "href") el.setAttribute("href", safeHref(v));
  else el.setAttribute(key, v === true ? "" : String(v));
}

/**
 * An element `tag` with `props` and `children` (text is added as text nodes).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  children?: Child | Child[],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const key of Object.keys(props || {})) setProp(el, key, props![key]);
  const list: Child[] = children === undefined ? [] : Array.isArray(children) ? children : [children];
  for (const c of list) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An answer of the node that was not 2xx, or no answer (status 0). */
export class ApiError extends Error {
  /** The HTTP status, or 0 when the node did not answer. */
  status: number;
  /** @param status the HTTP status @param message the node's `error` */
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * The JSON the node answers at `path` (same-origin, with the login cookie).
 */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(
      path,
      Object.assign({ credentials: "same-origin", headers: { accept: "application/json" } }, init),
    );
  } catch (e) {
    throw new ApiError(0, "the node did not answer (" + (e as Error).message + ")");
  }
  let body: { error?: unknown } | null = null;
  try {
    body = await res.json();
  } catch (_) {
    body = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, body && typeof body.error === "string" ? body.error : "HTTP " + res.status);
  }
  return body as T;
}

/** An alert box for `e`, with a way back to the login page on a 401. */
export function errorBox(e: unknown): HTMLElement {
  const status = e instanceof ApiError && e.status ? e.status + ": " : "";
  const message = e instanceof Error && e.message ? e.message : String(e);
  const box = h("div", { class: "error-box" }, [h("p", { class: "error", role: "alert", text: status + message })]);
  if (e instanceof ApiError && e.status === 401) {
    box.appendChild(h("p", {}, [h("a", { href: "/", text: "Log in again" })]));
  }
  return box;
}

/** The integer parameter `name` of `params` within `min`..`max`, else `fallback`. */
export function intParam<F extends number | null>(
  params: URLSearchParams,
  name: string,
  fallback: F,
  min: number,
  max: number,
): number | F {
  const raw = params.get(name);
  if (raw === null || !/^\d{1,15}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

/** The API path of project `slug`, then `rest`. */
export function projectPath(slug: string, rest?: string): string {
  return "/projects/" + encodeURIComponent(slug) + (rest || "");
}

const NUMERIC_TYPE = /^(integer|number|u?(tiny|small|big|huge)?int(eger)?|double|float|real|decimal.*)$/i;

/** A table cell showing `value` (of DuckDB or schema type `type`) as text. */
export function cell(value: unknown, type: string | undefined): HTMLElement {
  if (value === null || value === undefined) return h("td", { class: "null", text: "null" });
  if (typeof value === "object") return h("td", { class: "mono", text: JSON.stringify(value) });
  const numeric = typeof value === "number" || NUMERIC_TYPE.test(type || "");
  return h("td", { class: numeric ? "num" : null, text: String(value) });
}

/** Whether `type` (a schema or DuckDB type) holds numbers. */
export function numericType(type: string | undefined): boolean {
  return NUMERIC_TYPE.test(type || "");
}

/**
 * The tabs of version `version` of project `slug`, `current` marked:
 * its page, its records, its statistics and the SQL box.
 */
export function tabs(slug: string, version: number | null, current: string): HTMLElement {
  const q = version === null ? "" : "?version=" + version;
  const items: [string, string, string][] = [
    ["project", "#/p/" + slug + q, "Project"],
    ["data", "#/p/" + slug + "/data" + q, "Records"],
    ["statistics", "#/p/" + slug + "/statistics" + q, "Statistics"],
    ["sql", "#/p/" + slug + "/sql" + q, "SQL"],
  ];
  return h(
    "nav",
    { class: "tabs", "aria-label": "Views of this version" },
    items.map(([name, href, text]) =>
      h("a", { href, "data-tab": name, "aria-current": name === current ? "page" : null, text })
    ),
  );
}

/** A table `id` of `rows`, headed by `columns` with their `types`. */
export function table(id: string, columns: string[], types: string[], rows: unknown[][]): HTMLElement {
  const head = h(
    "tr",
    {},
    columns.map((c, i) => h("th", { scope: "col" }, [c, h("span", { class: "type", text: types[i] })])),
  );
  const body = rows.map((row) => h("tr", {}, row.map((v, i) => cell(v, types[i]))));
  return h("div", { class: "table-wrap" }, [h("table", { id }, [h("thead", {}, [head]), h("tbody", {}, body)])]);
}
