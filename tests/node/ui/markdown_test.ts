import { assert, assertEquals } from "../../support/assert.ts";
import * as markdown from "../../../src/node/ui/views/markdown.ts";

// The renderer's own module (the browser gets it bundled into /ui/app.js); blocks are read here field by field.
// deno-lint-ignore no-explicit-any
type Any = any;
const md: { mdParse(s: string): Any[]; mdInline(s: string): Any[]; mdHref(s: string): string | null; mdRender: Any } =
  markdown;

/** A document just big enough for mdRender, recording what was built. */
class FakeNode {
  children: FakeNode[] = [];
  attributes: Record<string, string> = {};
  text = "";
  constructor(readonly tag: string) {}
  appendChild(child: FakeNode) {
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string) {
    this.attributes[name] = value;
  }
  set textContent(value: string) {
    this.children = [];
    this.text = value;
  }
  /** Markup-like rendering, for assertions (text shown as it is, unescaped). */
  show(): string {
    if (this.tag === "#text") return this.text;
    const attrs = Object.entries(this.attributes).map(([k, v]) => ` ${k}="${v}"`).join("");
    const inner = this.text + this.children.map((c) => c.show()).join("");
    return this.tag === "#fragment" ? inner : `<${this.tag}${attrs}>${inner}</${this.tag}>`;
  }
  all(): FakeNode[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
}
const fakeDocument = {
  createElement: (tag: string) => new FakeNode(tag),
  createTextNode: (text: string) => Object.assign(new FakeNode("#text"), { text }),
  createDocumentFragment: () => new FakeNode("#fragment"),
};
const render = (source: string): FakeNode => md.mdRender(md.mdParse(source), fakeDocument);

Deno.test("mdParse: headings, paragraphs, lists, fenced code", () => {
  const blocks = md.mdParse(
    "# Title #\n\nfirst line\nsecond line\n\n- a\n- b\n  continued\n\n1. one\n2) two\n\n```sql\nSELECT 1;\n# not a heading\n```\n###### six",
  );
  assertEquals(blocks.map((b) => b.type), ["heading", "paragraph", "list", "list", "code", "heading"]);
  assertEquals(blocks[0].inline, [{ type: "text", text: "Title" }]);
  assertEquals(blocks[1].inline, [{ type: "text", text: "first line second line" }]);
  assertEquals([blocks[2].ordered, blocks[2].items.length, blocks[2].items[1]], [false, 2, [{
    type: "text",
    text: "b continued",
  }]]);
  assertEquals([blocks[3].ordered, blocks[3].items.length], [true, 2]);
  assertEquals(blocks[4].text, "SELECT 1;\n# not a heading");
  assertEquals(blocks[5].level, 6);
  assertEquals(md.mdParse("#hashtag")[0].type, "paragraph");
  assertEquals(md.mdParse("```\nnever closed")[0], { type: "code", text: "never closed" });
});

Deno.test("mdInline: code, strong, em, links, escapes; intra-word underscores stay text", () => {
  assertEquals(
    render("a `x<y>` **b** *c* _d_ snake_case_name \\*e\\*").show(),
    "<p>a <code>x<y></code> <strong>b</strong> <em>c</em> <em>d</em> snake_case_name *e*</p>",
  );
  assertEquals(
    render("see [the docs](https://example.com/a?b=1) and [http](http://x.example)").show(),
    '<p>see <a href="https://example.com/a?b=1" rel="noopener noreferrer nofollow">the docs</a> and ' +
      '<a href="http://x.example/" rel="noopener noreferrer nofollow">http</a></p>',
  );
  assertEquals(
    render("**[bold link](https://e.example/)**").show(),
    '<p><strong><a href="https://e.example/" rel="noopener noreferrer nofollow">bold link</a></strong></p>',
  );
  assertEquals(
    render("# Heading\n## Sub").show(),
    "<h2>Heading</h2><h3>Sub</h3>",
    "README headings sit under the page's h1",
  );
});

Deno.test("mdHref: links only to http(s) and mailto URLs and references relative to the page", () => {
  assertEquals(md.mdHref("https://example.com/x"), "https://example.com/x");
  assertEquals(md.mdHref("HTTP://Example.com"), "http://example.com/");
  assertEquals(md.mdHref("mailto:a@b.example"), "mailto:a@b.example");
  for (const relative of ["/relative", "#frag", "#/p/cities", "docs/x.md", "./x", "../x", "?q=1", "a/b:c"]) {
    assertEquals(md.mdHref(relative), relative, relative);
  }
  for (
    const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      " javascript:alert(1)",
      "\u0000javascript:alert(1)",
      "\u0085javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "blob:https://example.com/x",
      "//evil.example/x",
      "/\\evil.example/x",
      "\\\\evil.example\\x",
      "",
    ]
  ) {
    assertEquals(md.mdHref(href), null, JSON.stringify(href));
  }
});

Deno.test("pipe tables: header, aligned columns, escaped pipes, inline spans in cells", () => {
  const blocks = md.mdParse("intro\n| a | b \\| c | d |\n|:--|--:|:-:|\n| `x|y` | **2** |\n|1|2|3|4\n\nafter");
  assertEquals(blocks.map((b) => b.type), ["paragraph", "table", "paragraph"]);
  assertEquals(blocks[1].align, ["left", "right", "center"]);
  assertEquals(
    render("| a | b \\| c | d |\n|:--|--:|:-:|\n| `x\\|y` | **2** |\n|1|2|3|4").show(),
    '<table><thead><tr><th align="left">a</th><th align="right">b | c</th><th align="center">d</th></tr></thead>' +
      '<tbody><tr><td align="left"><code>x|y</code></td><td align="right"><strong>2</strong></td>' +
      '<td align="center"></td></tr><tr><td align="left">1</td><td align="right">2</td><td align="center">3</td></tr>' +
      "</tbody></table>",
    "short rows are filled, long ones cut",
  );
  assertEquals(render("a | b\n--- | ---").show(), "<table><thead><tr><th>a</th><th>b</th></tr></thead></table>");
  assertEquals(md.mdParse("| a | b |\n| --- |\n| 1 | 2 |").map((b) => b.type), ["paragraph"], "counts differ");
  assertEquals(md.mdParse("| a |\n---").map((b) => b.type), ["paragraph"], "no pipe in the delimiter row");
  assertEquals(md.mdParse("| a |\n| - |\n| 1 |\n# next").map((b) => b.type), ["table", "heading"]);
  assertEquals(
    render("| [t](https://e.example/) | [j](javascript:alert(1)) |\n|-|-|").show(),
    '<table><thead><tr><th><a href="https://e.example/" rel="noopener noreferrer nofollow">t</a></th>' +
      "<th>[j](javascript:alert(1))</th></tr></thead></table>",
  );
});

Deno.test("a hostile table stays text: no element but the table's own, no attribute but its alignment", () => {
  const root = render(
    [
      '| <script>alert(1)</script> | <img src=x onerror="alert(2)"> |',
      "| :-- | --: |",
      "| [x](javascript:alert(3)) | <svg onload=alert(4)> |",
      '| `<b onmouseover=alert(5)>` | " onmouseover="alert(6) |',
    ].join("\n"),
  );
  const tags = new Set(root.all().map((n) => n.tag));
  for (const tag of tags) {
    assert(["#fragment", "#text", "table", "thead", "tbody", "tr", "th", "td", "code"].includes(tag), `<${tag}>`);
  }
  for (const n of root.all()) {
    for (const [k, v] of Object.entries(n.attributes)) assert(k === "align" && ["left", "right"].includes(v), k);
  }
  assert(root.show().includes("<script>alert(1)</script>"), "shown as text");
});

Deno.test("a hostile README renders as inert text: no element but the renderer's own, no link but http(s)", () => {
  const hostile = [
    "# <script>alert(1)</script>",
    '<img src=x onerror="alert(2)">',
    "[x](javascript:alert(1)) [y](javascript:void) [z](data:text/html,hi) [w](  javascript:alert(3))",
    '<a href="javascript:alert(4)">click</a> <iframe src=//evil.example></iframe>',
    "- <svg onload=alert(5)>",
    "```",
    "</code></pre><script>alert(6)</script>",
    "```",
    "`<b onmouseover=alert(7)>`",
    "**<style>body{display:none}</style>**",
  ].join("\n");
  const root = render(hostile);
  const tags = new Set(root.all().map((n) => n.tag));
  for (const tag of tags) {
    assert(["#fragment", "#text", "h2", "p", "ul", "li", "pre", "code", "strong"].includes(tag), `unexpected <${tag}>`);
  }
  assertEquals(root.all().filter((n) => Object.keys(n.attributes).length > 0).length, 0, "no attribute at all");
  const text = root.show();
  for (const shown of ["<script>alert(1)</script>", '<img src=x onerror="alert(2)">', "[x](javascript:alert(1))"]) {
    assert(text.includes(shown), `shown as text: ${shown}`);
  }
});

Deno.test("work stays linear on pathological input", () => {
  const started = performance.now();
  for (
    const source of [
      "*a".repeat(100_000),
      "_ ".repeat(100_000),
      "[".repeat(200_000),
      "[a](".repeat(50_000),
      "\x60".repeat(200_000),
      "# " + " #".repeat(100_000) + "x",
      "- a\n".repeat(50_000),
      `**${"*".repeat(100_000)}`,
      "|".repeat(200_000),
      "| a |\n".repeat(50_000),
      "| a | b |\n| - | - |\n".repeat(25_000),
      "a\n|-|\n".repeat(50_000),
    ]
  ) {
    md.mdParse(source);
  }
  const ms = performance.now() - started;
  assert(ms < 10_000, `took ${ms} ms; quadratic work on 200,000 characters takes far longer`);
});
