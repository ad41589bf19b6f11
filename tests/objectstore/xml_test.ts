import { decodeXml, escapeXml } from "../../src/objectstore/_xml.ts";
import { assertEquals } from "../support/assert.ts";

Deno.test("decodeXml: XML's five entities and character references; anything else is left as sent", () => {
  assertEquals(decodeXml("a&amp;b &lt;&#233;&#x41;&gt; &quot;&apos;"), "a&b <éA> \"'");
  // Names Object.prototype has, and code points past Unicode's last, from a listing a hostile server wrote.
  for (const text of ["&constructor;", "&tostring;", "&proto;", "&#x110000;", "&#99999999999;", "&#xffffffffff;"]) {
    assertEquals(decodeXml(text), text);
  }
  assertEquals(decodeXml("&#x10FFFF;"), "\u{10FFFF}");
  assertEquals(decodeXml(escapeXml(`<a href="x">&'</a>`)), `<a href="x">&'</a>`);
});
