/**
 * Reading a page's HTML as a program without a browser does (curl, an
 * agent's fetch tool): the text of an element found by id, and the cells of
 * a table, entities decoded, tags dropped. Enough for the pages the node
 * writes (well-formed, no comments, no scripts inline).
 *
 * @module
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: "\u00a0" };

/** `html` with its entities decoded. */
export function decode(html: string): string {
  return html.replace(
    /&(amp|lt|gt|quot|#39|nbsp|#(\d+));/g,
    (_, name, code) => code ? String.fromCharCode(Number(code)) : ENTITIES[name],
  );
}

/** The text of `html`: tags dropped, entities decoded. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ""));
}

/**
 * The markup inside the element of `tag` whose `id` is `id` (elements of the
 * same tag nested in it counted), or null when there is none.
 */
export function elementById(html: string, tag: string, id: string): string | null {
  const open = new RegExp(`<${tag}\\b[^>]*\\bid="${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>`).exec(html);
  if (!open) return null;
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  tags.lastIndex = open.index + open[0].length;
  let depth = 1;
  for (let m = tags.exec(html); m !== null; m = tags.exec(html)) {
    depth += m[1] === "/" ? -1 : 1;
    if (depth === 0) return html.slice(open.index + open[0].length, m.index);
  }
  return null;
}

/** The text of the cells of each row of the table `id`'s body (`th` and `td` alike). */
export function tableRows(html: string, id: string): string[][] {
  const table = elementById(html, "table", id);
  if (table === null) return [];
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(table)?.[1] ?? "";
  return [...body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<(td|th)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((cell) => textOf(cell[2]).trim())
  );
}

/** The `href` of every link in `html`, decoded. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => decode(m[1]));
}
