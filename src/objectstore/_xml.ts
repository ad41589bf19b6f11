/**
 * Just enough XML for S3's answers: the texts of the elements named so in
 * a document whose elements of one name never nest (S3's answers are so),
 * entities decoded.
 *
 * @module
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * `text` with XML's entities and character references decoded.
 *
 * @example
 * ```ts
 * import { decodeXml } from "./_xml.ts";
 * decodeXml("a&amp;b &lt;&#233;&#x41;&gt;"); // "a&b <éA>"
 * ```
 */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, name: string) => {
    const code = name.startsWith("#x")
      ? parseInt(name.slice(2), 16)
      : name.startsWith("#")
      ? parseInt(name.slice(1), 10)
      : -1;
    if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : whole;
  });
}

/**
 * The raw insides of every `<tag>` element of `xml`, in order (an empty
 * `<tag/>` gives `""`).
 *
 * @example
 * ```ts
 * import { elements } from "./_xml.ts";
 * elements("<a><k>1</k><k/><k x=\"y\">2</k></a>", "k"); // ["1", "", "2"]
 * ```
 */
export function elements(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}(?:\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</${tag}\\s*>)`, "g");
  return [...xml.matchAll(pattern)].map((m) => m[1] ?? "");
}

/**
 * The decoded text of the first `<tag>` of `xml`, or `undefined`.
 *
 * @example
 * ```ts
 * import { textOf } from "./_xml.ts";
 * textOf("<Error><Code>NoSuchKey</Code></Error>", "Code"); // "NoSuchKey"
 * ```
 */
export function textOf(xml: string, tag: string): string | undefined {
  const found = elements(xml, tag)[0];
  return found === undefined ? undefined : decodeXml(found);
}

/**
 * `text` with `&`, `<`, `>`, `"` and `'` escaped, for a request body.
 *
 * @example
 * ```ts
 * import { escapeXml } from "./_xml.ts";
 * escapeXml('"a"<b>'); // "&quot;a&quot;&lt;b&gt;"
 * ```
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${Object.entries(ENTITIES).find(([, v]) => v === c)![0]};`);
}
