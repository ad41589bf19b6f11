/**
 * A tiny, safe Markdown renderer for project READMEs, run in the browser.
 * It knows headings, paragraphs, lists, fenced code, pipe tables (GitHub's,
 * with alignment), inline code, emphasis and links; links only to http(s)
 * and mailto URLs and relative references, and everything else (HTML
 * included) stays text. {@linkcode mdParse} turns the source into plain
 * objects; {@linkcode mdRender} builds DOM from them with `createElement`
 * and `createTextNode` only, never from markup. Work is linear in the
 * source: closing marks are searched once per kind, and link syntax is
 * matched with bounded, anchored patterns.
 *
 * @module
 */

/** A span of inline Markdown. */
export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] };

/** A block of Markdown. */
export type Block =
  | { type: "heading"; level: number; inline: Inline[] }
  | { type: "paragraph"; inline: Inline[] }
  | { type: "list"; ordered: boolean; items: Inline[][] }
  | { type: "code"; text: string }
  | { type: "table"; align: Align[]; head: Inline[][]; rows: Inline[][][] };

/** A node as {@linkcode mdRender} uses it (written without the DOM's types, so Deno tests can import this module). */
export interface MdNode {
  /** Adds a child. */
  appendChild(child: MdNode): unknown;
}

/** An element as {@linkcode mdRender} uses it. */
export interface MdElement extends MdNode {
  /** Sets an attribute by name. */
  setAttribute(name: string, value: string): void;
  /** Its text. */
  textContent: string | null;
}

/** What {@linkcode mdRender} uses of a document (a DOM `Document` is one). */
export interface MdDocument<F extends MdNode> {
  /** A new element. */
  createElement(tag: string): MdElement;
  /** A new text node. */
  createTextNode(text: string): MdNode;
  /** A new fragment. */
  createDocumentFragment(): F;
}
import { type Align, fitCells, tableCells, tableStart } from "./markdown_table.ts";

const MD_FENCE = /^ {0,3}(`{3,}|~{3,})/;
const MD_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const MD_ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;
const MD_LINK = /\[([^\[\]\n]{1,500})\]\(([^()\s]{1,2000})\)/y;
const MD_ESCAPABLE = "\\`*_[]()#+-.!~>";

function mdItem(line: string): { ordered: boolean; text: string } | null {
  const m = MD_ITEM.exec(line);
  return m ? { ordered: m[2] !== undefined, text: m[3] } : null;
}

function mdHeadingText(t: string): string {
  let end = t.length;
  while (end > 0 && (t[end - 1] === " " || t[end - 1] === "\t")) end--;
  let hashes = end;
  while (hashes > 0 && t[hashes - 1] === "#") hashes--;
  if (hashes < end && (hashes === 0 || t[hashes - 1] === " " || t[hashes - 1] === "\t")) end = hashes;
  return t.slice(0, end).trim();
}

function mdBlockStart(line: string): boolean {
  return MD_FENCE.test(line) || MD_HEADING.test(line) || mdItem(line) !== null;
}

/** Lines are read through a cursor: each block reader moves it past what it took. */
interface Lines {
  lines: string[];
  at: number;
}

function fenced(src: Lines, mark: string): Block {
  const body: string[] = [];
  src.at++;
  while (src.at < src.lines.length) {
    const t = src.lines[src.at].trim();
    if (t.length >= mark.length && t === mark[0].repeat(t.length)) break;
    body.push(src.lines[src.at]);
    src.at++;
  }
  src.at++;
  return { type: "code", text: body.join("\n") };
}

function list(src: Lines, first: { ordered: boolean; text: string }): Block {
  const items: Inline[][] = [];
  let item: { ordered: boolean; text: string } | null = first;
  while (item && item.ordered === first.ordered) {
    let text = item.text;
    src.at++;
    while (src.at < src.lines.length && /^\s+\S/.test(src.lines[src.at]) && !mdItem(src.lines[src.at])) {
      text += " " + src.lines[src.at].trim();
      src.at++;
    }
    items.push(mdInline(text));
    item = src.at < src.lines.length ? mdItem(src.lines[src.at]) : null;
  }
  return { type: "list", ordered: first.ordered, items };
}

function table(src: Lines, start: { head: string[]; align: Align[] }): Block {
  const n = start.head.length;
  const rows: Inline[][][] = [];
  src.at += 2;
  while (src.at < src.lines.length) {
    const line = src.lines[src.at];
    const cells = line.trim() === "" || mdBlockStart(line) ? null : tableCells(line);
    if (!cells) break;
    rows.push(fitCells(cells, n).map((c) => mdInline(c)));
    src.at++;
  }
  return { type: "table", align: start.align, head: start.head.map((c) => mdInline(c)), rows };
}

function paragraph(src: Lines): Block {
  const para = [src.lines[src.at].trim()];
  src.at++;
  while (
    src.at < src.lines.length && src.lines[src.at].trim() !== "" && !mdBlockStart(src.lines[src.at]) &&
    !tableStart(src.lines, src.at)
  ) {
    para.push(src.lines[src.at].trim());
    src.at++;
  }
  return { type: "paragraph", inline: mdInline(para.join(" ")) };
}

/**
 * The blocks of `source`.
 *
 * @example
 * ```ts
 * import { mdParse } from "./markdown.ts";
 * mdParse("# Title")[0].type; // "heading"
 * ```
 */
export function mdParse(source: string): Block[] {
  const src: Lines = { lines: String(source).replace(/\r\n?/g, "\n").split("\n"), at: 0 };
  const blocks: Block[] = [];
  while (src.at < src.lines.length) {
    const line = src.lines[src.at];
    if (line.trim() === "") {
      src.at++;
      continue;
    }
    const fence = MD_FENCE.exec(line);
    const heading = fence ? null : MD_HEADING.exec(line);
    const first = fence || heading ? null : mdItem(line);
    const head = fence || heading || first ? null : tableStart(src.lines, src.at);
    if (fence) blocks.push(fenced(src, fence[1]));
    else if (heading) {
      blocks.push({ type: "heading", level: heading[1].length, inline: mdInline(mdHeadingText(heading[2] || "")) });
      src.at++;
    } else if (first) blocks.push(list(src, first));
    else if (head) blocks.push(table(src, head));
    else blocks.push(paragraph(src));
  }
  return blocks;
}

const MD_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Characters no link may hold: browsers drop tabs and newlines inside URLs and read `\\` as `/`. */
// deno-lint-ignore no-control-regex
const MD_UNSAFE = /[\u0000-\u0020\u007f-\u009f\\]/;

/**
 * `raw` as a README link, else null: an http(s) or mailto URL, or a
 * reference relative to the page (a path, `?query` or `#fragment`); no
 * other scheme (`javascript:`, `data:`...), no `//host`, no control
 * characters, spaces or backslashes.
 *
 * @example
 * ```ts
 * import { mdHref } from "./markdown.ts";
 * mdHref("javascript:alert(1)"); // null
 * mdHref("#/p/cities"); // "#/p/cities"
 * ```
 */
export function mdHref(raw: string): string | null {
  if (raw === "" || MD_UNSAFE.test(raw)) return null;
  if (!MD_SCHEME.test(raw)) return raw.startsWith("//") ? null : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch (_) {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : null;
}

/** The state of one inline scan: the text, the spans so far, marks known to have no closing. */
interface InlineScan {
  text: string;
  depth: number;
  out: Inline[];
  missing: Set<string>;
  buf: string;
  i: number;
}

function flush(s: InlineScan): void {
  if (s.buf !== "") s.out.push({ type: "text", text: s.buf });
  s.buf = "";
}

function closing(s: InlineScan, mark: string, from: number): number {
  if (s.missing.has(mark)) return -1;
  const at = s.text.indexOf(mark, from);
  if (at < 0) s.missing.add(mark);
  return at;
}

/** A code span, emphasis or link starting at the scan's position, taken if it is one. */
function takeSpan(s: InlineScan): boolean {
  const { text, i } = s;
  const c = text[i];
  if (c === "`") {
    const end = closing(s, "`", i + 1);
    if (end > i + 1) {
      flush(s);
      s.out.push({ type: "code", text: text.slice(i + 1, end) });
      s.i = end + 1;
      return true;
    }
  }
  const wordBefore = i > 0 && /\w/.test(text[i - 1]);
  if (s.depth < 3 && (c === "*" || (c === "_" && !wordBefore))) {
    const mark = text[i + 1] === c ? c + c : c;
    const end = closing(s, mark, i + mark.length);
    if (end > i + mark.length) {
      flush(s);
      const children = mdInline(text.slice(i + mark.length, end), s.depth + 1);
      s.out.push({ type: mark.length === 2 ? "strong" : "em", children });
      s.i = end + mark.length;
      return true;
    }
  }
  if (c === "[" && s.depth < 3) {
    MD_LINK.lastIndex = i;
    const m = MD_LINK.exec(text);
    const href = m ? mdHref(m[2]) : null;
    if (m && href) {
      flush(s);
      s.out.push({ type: "link", href, children: mdInline(m[1], 3) });
      s.i += m[0].length;
      return true;
    }
  }
  return false;
}

/**
 * The inline spans of `text` (emphasis nests at most three deep).
 *
 * @example
 * ```ts
 * import { mdInline } from "./markdown.ts";
 * mdInline("a `b`")[1].type; // "code"
 * ```
 */
export function mdInline(text: string, depth = 0): Inline[] {
  const s: InlineScan = { text, depth, out: [], missing: new Set(), buf: "", i: 0 };
  while (s.i < text.length) {
    const c = text[s.i];
    if (c === "\\" && s.i + 1 < text.length && MD_ESCAPABLE.indexOf(text[s.i + 1]) >= 0) {
      s.buf += text[s.i + 1];
      s.i += 2;
      continue;
    }
    if (takeSpan(s)) continue;
    s.buf += c;
    s.i++;
  }
  flush(s);
  return s.out;
}

function mdAppend(parent: MdNode, nodes: Inline[], doc: MdDocument<MdNode>): void {
  for (const n of nodes) {
    if (n.type === "text") {
      parent.appendChild(doc.createTextNode(n.text));
    } else if (n.type === "code") {
      const code = doc.createElement("code");
      code.textContent = n.text;
      parent.appendChild(code);
    } else if (n.type === "link") {
      const a = doc.createElement("a");
      a.setAttribute("href", n.href);
      a.setAttribute("rel", "noopener noreferrer nofollow");
      mdAppend(a, n.children, doc);
      parent.appendChild(a);
    } else {
      const e = doc.createElement(n.type === "strong" ? "strong" : "em");
      mdAppend(e, n.children, doc);
      parent.appendChild(e);
    }
  }
}

function tableRow(cells: Inline[][], tag: string, align: Align[], doc: MdDocument<MdNode>): MdElement {
  const tr = doc.createElement("tr");
  cells.forEach((inline, i) => {
    const cell = doc.createElement(tag);
    const a = align[i];
    if (a) cell.setAttribute("align", a);
    mdAppend(cell, inline, doc);
    tr.appendChild(cell);
  });
  return tr;
}

function tableElement(b: Extract<Block, { type: "table" }>, doc: MdDocument<MdNode>): MdElement {
  const el = doc.createElement("table");
  const head = doc.createElement("thead");
  head.appendChild(tableRow(b.head, "th", b.align, doc));
  el.appendChild(head);
  if (b.rows.length) {
    const body = doc.createElement("tbody");
    for (const row of b.rows) body.appendChild(tableRow(row, "td", b.align, doc));
    el.appendChild(body);
  }
  return el;
}

function blockElement(b: Block, doc: MdDocument<MdNode>): MdElement {
  if (b.type === "table") return tableElement(b, doc);
  if (b.type === "heading") {
    const el = doc.createElement("h" + Math.min(6, b.level + 1));
    mdAppend(el, b.inline, doc);
    return el;
  }
  if (b.type === "code") {
    const el = doc.createElement("pre");
    const code = doc.createElement("code");
    code.textContent = b.text;
    el.appendChild(code);
    return el;
  }
  if (b.type === "list") {
    const el = doc.createElement(b.ordered ? "ol" : "ul");
    for (const item of b.items) {
      const li = doc.createElement("li");
      mdAppend(li, item, doc);
      el.appendChild(li);
    }
    return el;
  }
  const el = doc.createElement("p");
  mdAppend(el, b.inline, doc);
  return el;
}

/**
 * `blocks` as DOM, built with `createElement` and `createTextNode` only.
 */
export function mdRender<F extends MdNode>(blocks: Block[], doc: MdDocument<F>): F {
  const frag = doc.createDocumentFragment();
  for (const b of blocks) frag.appendChild(blockElement(b, doc));
  return frag;
}
