/**
 * The browser script's DOM: markup ({@linkcode VNode}s, as the views draw
 * them) built with `createElement`, `setAttribute` and `createTextNode`
 * only (never from markup), the JSON API client, and what the node said of
 * itself at start.
 *
 * @module
 */
import {
  ApiError,
  errorBox as errorMarkup,
  h as markup,
  type NodeFacts,
  type Props,
  table as tableMarkup,
  type VNode,
} from "../views/mod.ts";

/** The node's facts, filled once at start. */
export const session: { node: NodeFacts } = { node: {} };

const SVG = "http://www.w3.org/2000/svg";

/** `node` as DOM (listeners added); what is inside an `svg` is SVG. */
export function mount(node: VNode | string, svg = false): Node {
  if (typeof node === "string") return document.createTextNode(node);
  const inSvg = svg || node.tag === "svg";
  const el = inSvg ? document.createElementNS(SVG, node.tag) : document.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs)) {
    if (!/^on/i.test(name)) el.setAttribute(name, value);
  }
  for (const [event, listener] of Object.entries(node.on ?? {})) el.addEventListener(event, listener);
  for (const child of node.children) el.appendChild(mount(child, inSvg));
  return el;
}

/** A child of {@linkcode h}: an element, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/**
 * An element `tag` with `props` and `children`, as DOM (the views' `h`
 * rules: `text`, `class`, `on` listeners, a checked `href`, attributes by
 * name), for the SQL box, which keeps its elements to read and fill.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  children?: Child | Child[],
): HTMLElementTagNameMap[K] {
  const el = mount(markup(tag, props)) as HTMLElementTagNameMap[K];
  const list: Child[] = children === undefined ? [] : Array.isArray(children) ? children : [children];
  for (const c of list) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The JSON the node answers at `path` (same-origin, with the login cookie), or an `ApiError`. */
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

/** An alert box for `e`, as DOM. */
export function errorBox(e: unknown): HTMLElement {
  return mount(errorMarkup(e)) as HTMLElement;
}

/** A table `id` of `rows`, headed by `columns` with their `types`, as DOM. */
export function table(id: string, columns: string[], types: string[], rows: unknown[][]): HTMLElement {
  return mount(tableMarkup(id, columns, types, rows)) as HTMLElement;
}
