/**
 * A project whose README, title, column name and records try to run script
 * in a browser, for tests that the browser interface shows them as text.
 *
 * @module
 */
import { StoreWriter } from "./store_fixture.ts";

/** What the hostile strings would do if they ran: set this global or open a dialog. */
export const PWNED = "__pwned";

/** The hostile README. */
export const HOSTILE_README = [
  "# <script>window.__pwned = 'readme heading'</script>",
  "",
  "<img src=x onerror=\"window.__pwned = 'readme img'; alert(1)\">",
  "",
  "[x](javascript:alert(1)) and [y](javascript:window.__pwned=1) and [z](data:text/html,<script>alert(2)</script>)",
  "",
  "A [real link](https://example.com/docs) and `<b onmouseover=alert(3)>code</b>` and **bold** *text*.",
  "",
  "- <svg onload=alert(4)>",
  '- <iframe src="javascript:alert(5)"></iframe>',
  "",
  "```",
  "</code></pre><script>alert(6)</script>",
  "```",
].join("\n");

/** A hostile record value. */
export const HOSTILE_VALUE = "<img src=x onerror=\"window.__pwned = 'record'; alert(7)\">";

/** Writes the project `hostile` (one version, three records) into the store at `root`. */
export async function hostileProject(root: string): Promise<void> {
  const w = new StoreWriter(root);
  try {
    const column = "<i onmouseover=alert(8)>col</i>";
    await w.project("hostile", {
      slug: "hostile",
      title: "<img src=x onerror=alert(9)> Hostile",
      readme: HOSTILE_README,
      license: "<script>alert(10)</script>",
      schemaDef: {
        fields: [{ name: "id", type: "integer" }, { name: "name", type: "string" }, { name: column, type: "string" }],
        allowExtra: false,
      },
      latestVersion: 1,
    });
    const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;
    await w.version("hostile", 1, {
      parts: [{
        sql: `SELECT i::BIGINT AS id, ${quoted(HOSTILE_VALUE)} AS name, ` +
          `${quoted("<script>window.__pwned = 'cell'</script>")} AS "${column}" FROM range(3) r(i)`,
      }],
    });
  } finally {
    w.close();
  }
}
