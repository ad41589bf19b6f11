/**
 * A project's README as markup nodes: the Markdown renderer (`markdown.ts`)
 * run over a document whose elements are {@linkcode VNode}s, so that the
 * node writes it as HTML and the browser script builds the same DOM.
 *
 * @module
 */
import type { VNode } from "./html.ts";
import { mdParse, mdRender } from "./markdown.ts";

/** A node of the markup document: an element, or text. */
interface DocNode {
  appendChild(child: DocNode): unknown;
  readonly node: VNode | string;
}

function element(
  tag: string,
): DocNode & { setAttribute(name: string, value: string): void; textContent: string | null } {
  const node: VNode = { tag, attrs: {}, children: [] };
  return {
    node,
    appendChild(child: DocNode) {
      node.children.push(child.node);
    },
    setAttribute(name: string, value: string) {
      node.attrs[name] = value;
    },
    get textContent() {
      return node.children.filter((c) => typeof c === "string").join("");
    },
    set textContent(text: string | null) {
      node.children = text === null ? [] : [text];
    },
  };
}

/**
 * The README `source` (Markdown) as markup nodes.
 *
 * @example
 * ```ts
 * import { readmeNodes } from "./readme.ts";
 * import { toHtml } from "./html.ts";
 * toHtml(readmeNodes("# Cities\n\nSee [GeoNames](https://www.geonames.org).")).startsWith("<h2>Cities</h2><p>See <a"); // true
 * ```
 */
export function readmeNodes(source: string): (VNode | string)[] {
  const fragment = element("#fragment");
  mdRender(mdParse(source), {
    createElement: (tag: string) => element(tag),
    createTextNode: (text: string): DocNode => ({ node: text, appendChild: () => {} }),
    createDocumentFragment: () => fragment,
  });
  return (fragment.node as VNode).children;
}
