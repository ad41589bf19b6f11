/**
 * A tiny, safe Markdown renderer for project READMEs, as browser JavaScript
 * (part of `/ui/app.js`). It knows headings, paragraphs, lists, fenced code,
 * inline code, emphasis and links; links only to http(s) URLs, and everything
 * else (HTML included) stays text. `mdParse` turns the source into plain
 * objects; `mdRender` builds DOM from them with `createElement` and
 * `createTextNode` only, never from markup. Work is linear in the source:
 * closing marks are searched once per kind, and link syntax is matched with
 * bounded, anchored patterns.
 *
 * @module
 */

/**
 * The renderer's source: the functions `mdParse(source)` (blocks of
 * `{type: "heading"|"paragraph"|"list"|"code", ...}`), `mdInline(text)`,
 * `mdHref(url)` (the URL if http(s), else null) and
 * `mdRender(blocks, document)` (a `DocumentFragment`).
 *
 * @example
 * ```ts
 * import { MARKDOWN_JS } from "./markdown.ts";
 * const md = new Function(`${MARKDOWN_JS}\nreturn { mdParse, mdHref };`)();
 * md.mdHref("javascript:alert(1)"); // null
 * md.mdParse("# Title")[0].type; // "heading"
 * ```
 */
export const MARKDOWN_JS = String.raw`
const MD_FENCE = /^ {0,3}(\x60{3,}|~{3,})/;
const MD_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const MD_ITEM = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;
const MD_LINK = /\[([^\[\]\n]{1,500})\]\(([^()\s]{1,2000})\)/y;
const MD_ESCAPABLE = "\\\x60*_[]()#+-.!~>";

function mdItem(line) {
  const m = MD_ITEM.exec(line);
  return m ? { ordered: m[2] !== undefined, text: m[3] } : null;
}

function mdHeadingText(t) {
  let end = t.length;
  while (end > 0 && (t[end - 1] === " " || t[end - 1] === "\t")) end--;
  let hashes = end;
  while (hashes > 0 && t[hashes - 1] === "#") hashes--;
  if (hashes < end && (hashes === 0 || t[hashes - 1] === " " || t[hashes - 1] === "\t")) end = hashes;
  return t.slice(0, end).trim();
}

function mdBlockStart(line) {
  return MD_FENCE.test(line) || MD_HEADING.test(line) || mdItem(line) !== null;
}

function mdParse(source) {
  const lines = String(source).replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = MD_FENCE.exec(line);
    if (fence) {
      const mark = fence[1];
      const body = [];
      i++;
      while (i < lines.length) {
        const t = lines[i].trim();
        if (t.length >= mark.length && t === mark[0].repeat(t.length)) break;
        body.push(lines[i]);
        i++;
      }
      i++;
      blocks.push({ type: "code", text: body.join("\n") });
      continue;
    }
    const heading = MD_HEADING.exec(line);
    if (heading) {
      blocks.push({ type: "heading", level: heading[1].length, inline: mdInline(mdHeadingText(heading[2] || "")) });
      i++;
      continue;
    }
    const first = mdItem(line);
    if (first) {
      const items = [];
      let item = first;
      while (item && item.ordered === first.ordered) {
        let text = item.text;
        i++;
        while (i < lines.length && /^\s+\S/.test(lines[i]) && !mdItem(lines[i])) {
          text += " " + lines[i].trim();
          i++;
        }
        items.push(mdInline(text));
        item = i < lines.length ? mdItem(lines[i]) : null;
      }
      blocks.push({ type: "list", ordered: first.ordered, items: items });
      continue;
    }
    const para = [line.trim()];
    i++;
    while (i < lines.length && lines[i].trim() !== "" && !mdBlockStart(lines[i])) {
      para.push(lines[i].trim());
      i++;
    }
    blocks.push({ type: "paragraph", inline: mdInline(para.join(" ")) });
  }
  return blocks;
}

function mdHref(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch (_) {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

function mdInline(text, depth) {
  depth = depth || 0;
  const out = [];
  const missing = {};
  let buf = "";
  let i = 0;
  function flush() {
    if (buf !== "") out.push({ type: "text", text: buf });
    buf = "";
  }
  function closing(mark, from) {
    if (missing[mark]) return -1;
    const at = text.indexOf(mark, from);
    if (at < 0) missing[mark] = true;
    return at;
  }
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length && MD_ESCAPABLE.indexOf(text[i + 1]) >= 0) {
      buf += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "\x60") {
      const end = closing("\x60", i + 1);
      if (end > i + 1) {
        flush();
        out.push({ type: "code", text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const wordBefore = i > 0 && /\w/.test(text[i - 1]);
    if (depth < 3 && (c === "*" || (c === "_" && !wordBefore))) {
      const mark = text[i + 1] === c ? c + c : c;
      const end = closing(mark, i + mark.length);
      if (end > i + mark.length) {
        flush();
        const kind = mark.length === 2 ? "strong" : "em";
        out.push({ type: kind, children: mdInline(text.slice(i + mark.length, end), depth + 1) });
        i = end + mark.length;
        continue;
      }
    }
    if (c === "[" && depth < 3) {
      MD_LINK.lastIndex = i;
      const m = MD_LINK.exec(text);
      const href = m ? mdHref(m[2]) : null;
      if (m && href) {
        flush();
        out.push({ type: "link", href: href, children: mdInline(m[1], 3) });
        i += m[0].length;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

function mdAppend(parent, nodes, doc) {
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

function mdRender(blocks, doc) {
  const frag = doc.createDocumentFragment();
  for (const b of blocks) {
    let el;
    if (b.type === "heading") {
      el = doc.createElement("h" + Math.min(6, b.level + 1));
      mdAppend(el, b.inline, doc);
    } else if (b.type === "code") {
      el = doc.createElement("pre");
      const code = doc.createElement("code");
      code.textContent = b.text;
      el.appendChild(code);
    } else if (b.type === "list") {
      el = doc.createElement(b.ordered ? "ol" : "ul");
      for (const item of b.items) {
        const li = doc.createElement("li");
        mdAppend(li, item, doc);
        el.appendChild(li);
      }
    } else {
      el = doc.createElement("p");
      mdAppend(el, b.inline, doc);
    }
    frag.appendChild(el);
  }
  return frag;
}
`;
