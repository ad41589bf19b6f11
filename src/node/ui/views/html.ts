/**
 * Markup as plain data, for the views the node renders as HTML and the
 * browser script renders as DOM from the same functions. {@linkcode h} makes
 * a node; {@linkcode toHtml} writes it out with every text and attribute
 * escaped; the browser script builds DOM from it with `createElement`,
 * `setAttribute` and `createTextNode` only. Data reaches a page only as
 * text or as an attribute set by name; a link only when it resolves to
 * http(s) (or mailto).
 *
 * @module
 */

/** Listeners of a node, by event name (the browser script's; HTML has none). */
export type Listeners = Record<string, (event: Event) => unknown>;

/** An element: its tag, attributes, listeners and children (text is a string). */
export interface VNode {
  /** The tag (`svg` and what is inside it are SVG). */
  tag: string;
  /** Attributes, by name. */
  attrs: Record<string, string>;
  /** Listeners, by event name. */
  on?: Listeners;
  /** Children: elements and text. */
  children: (VNode | string)[];
}

/** A child of {@linkcode h}: an element, text, or nothing. */
export type Child = VNode | string | number | null | undefined | false;

/** Properties of {@linkcode h}: `text` (its text), `class`, `on` (listeners), `href` (checked), or any attribute. */
export type Props = Record<string, unknown> & { on?: Listeners };

/** A base for resolving relative links (a relative link is the page's own scheme, http or https). */
const BASE = "http://node.invalid/";

/**
 * `value` if it resolves to an http(s) or mailto URL, else `#`.
 *
 * @example
 * ```ts
 * import { safeHref } from "./html.ts";
 * safeHref("/p/cities"); // "/p/cities"
 * safeHref("javascript:alert(1)"); // "#"
 * ```
 */
export function safeHref(value: unknown): string {
  try {
    const url = new URL(String(value), BASE);
    if (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:") return String(value);
  } catch (_) {
    // not a URL: no link
  }
  return "#";
}

/**
 * An element `tag` with `props` and `children`.
 *
 * @example
 * ```ts
 * import { h, toHtml } from "./html.ts";
 * toHtml(h("a", { href: "/p/x", class: "go", text: "<x>" })); // '<a href="/p/x" class="go">&lt;x&gt;</a>'
 * ```
 */
export function h(tag: string, props?: Props, children?: Child | Child[]): VNode {
  const node: VNode = { tag, attrs: {}, children: [] };
  for (const key of Object.keys(props || {})) {
    const v = props![key];
    if (v === null || v === undefined || v === false) continue;
    if (key === "text") node.children.push(String(v));
    else if (key === "on") node.on = v as Listeners;
    else if (key === "href") node.attrs.href = safeHref(v);
    else node.attrs[key] = v === true ? "" : String(v);
  }
  const list: Child[] = children === undefined ? [] : Array.isArray(children) ? children : [children];
  for (const c of list) {
    if (c === null || c === undefined || c === false) continue;
    node.children.push(typeof c === "object" ? c : String(c));
  }
  return node;
}

/** Elements written without a closing tag. */
const VOID = new Set(["input", "br", "hr", "meta", "link", "img", "col", "wbr"]);

/** A tag or attribute name as it may be written (anything else is dropped). */
const NAME = /^[a-zA-Z][a-zA-Z0-9:-]*$/;

/**
 * `text` with HTML's special characters as entities, for text and for
 * attribute values in double quotes.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./html.ts";
 * escapeHtml(`<a href="x">&'`); // "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * `nodes` as HTML: text and attribute values escaped, names that are not
 * plain names dropped, listeners left out.
 *
 * @example
 * ```ts
 * import { h, toHtml } from "./html.ts";
 * toHtml([h("p", {}, ["a < b"]), "&"]); // "<p>a &lt; b</p>&amp;"
 * ```
 */
export function toHtml(nodes: VNode | string | (VNode | string)[]): string {
  if (typeof nodes === "string") return escapeHtml(nodes);
  if (Array.isArray(nodes)) return nodes.map(toHtml).join("");
  if (!NAME.test(nodes.tag)) return "";
  const attrs = Object.entries(nodes.attrs)
    .filter(([name]) => NAME.test(name) && !/^on/i.test(name))
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join("");
  if (VOID.has(nodes.tag)) return `<${nodes.tag}${attrs}>`;
  return `<${nodes.tag}${attrs}>${toHtml(nodes.children)}</${nodes.tag}>`;
}

/**
 * The text of `nodes`, as `textContent` reads it.
 *
 * @example
 * ```ts
 * import { h, textOf } from "./html.ts";
 * textOf(h("p", {}, ["a", h("b", { text: "c" })])); // "ac"
 * ```
 */
export function textOf(nodes: VNode | string | (VNode | string)[]): string {
  if (typeof nodes === "string") return nodes;
  if (Array.isArray(nodes)) return nodes.map(textOf).join("");
  return textOf(nodes.children);
}
