/**
 * What the browser tests share: a node over the cities fixture, the hostile
 * project and `towns` (a small project to explore: a low-cardinality column
 * with a `javascript:` value, a boolean, a hostile record value and a README
 * with a table), waits on the app's `data-ready` marker, readers of the page,
 * screenshots, and the check that nothing hostile ran.
 *
 * @module
 */
import type { Browser, Page } from "../../support/puppeteer.ts";
import { join } from "node:path";
import { serveNode } from "../../../server.ts";
import { assert, assertEquals, type Json } from "../../support/assert.ts";
import { assertPng, type PageWatch, screenshotDir, watchedPage, withBrowser } from "../../support/browser.ts";
import { hostileProject, PWNED } from "../../support/hostile_project.ts";
import { fromFragment } from "../../../src/node/ui/views/mod.ts";
import { citiesStore, StoreWriter, tempDir } from "../../support/store_fixture.ts";

/** The page's document, as the functions run by `page.evaluate` see it (Deno's types have no DOM). */
declare const document: Json;

/** How long a wait on the page may take. */
export const WAIT = { timeout: 30_000 };

/** A hostile record value of `towns` (record 7). */
export const TOWN_HOSTILE = "<img src=x onerror=\"window.__pwned = 'towns'; alert(11)\">";

/** The country of every fifth town from the fourth: a value that would run as a link's URL. */
export const JS_VALUE = "javascript:alert(1)";

/** The README of `towns`: a table with aligned columns, and links. */
export const TOWNS_README = [
  "# Towns",
  "",
  "| Country | Towns | Share |",
  "| :------ | ----: | :---: |",
  "| FR | 24 | 20 % |",
  "| `DE` \\| AT | 24 | **20 %** |",
  "",
  "See [the cities](#/p/cities) or [the docs](https://example.com/towns).",
].join("\n");

/** The fields of `towns`. */
export const TOWN_FIELDS = [
  { name: "id", type: "integer" },
  { name: "name", type: "string" },
  { name: "country", type: "string", required: false },
  { name: "population", type: "integer" },
  { name: "capital", type: "boolean" },
  { name: "remark", type: "string" },
];

/** Writes `towns` (one version, 120 records) into the store at `root`. */
export async function townsProject(root: string): Promise<void> {
  const w = new StoreWriter(root);
  try {
    await w.project("towns", {
      slug: "towns",
      title: "Towns",
      readme: TOWNS_README,
      license: "CC0-1.0",
      schemaDef: { fields: TOWN_FIELDS, allowExtra: false },
      latestVersion: 1,
    });
    const quoted = (s: string) => `'${s.replaceAll("'", "''")}'`;
    await w.version("towns", 1, {
      parts: [{
        sql: `SELECT i::BIGINT AS id, 'town-' || i AS name, ` +
          `CASE i % 5 WHEN 0 THEN 'FR' WHEN 1 THEN 'DE' WHEN 2 THEN 'IT' WHEN 3 THEN ${
            quoted(JS_VALUE)
          } END AS country, ` +
          `((i * 137) % 1000 * 100)::BIGINT AS population, (i % 4 = 0) AS capital, ` +
          `CASE WHEN i = 7 THEN ${quoted(TOWN_HOSTILE)} ELSE 'ok' END AS remark FROM range(120) r(i)`,
      }],
    });
  } finally {
    w.close();
  }
}

/** A node on a free loopback port over the cities fixture, the hostile project and `towns`. */
export async function withUiNode(
  token: string | null,
  fn: (node: { url: string; log: string[]; store: string }) => Promise<void>,
  opts: { towns?: boolean } = {},
): Promise<void> {
  const dir = await tempDir();
  const log: string[] = [];
  try {
    await citiesStore(dir.path);
    await hostileProject(dir.path);
    if (opts.towns) await townsProject(dir.path);
    const serving = await serveNode({ store: dir.path, host: "127.0.0.1", port: 0, token, log: (l) => log.push(l) });
    try {
      await fn({ url: serving.url, log, store: dir.path });
    } finally {
      await serving.shutdown();
    }
  } finally {
    await dir.cleanup();
  }
}

/** The address of `link`: itself, or the address of a link from before the interface had addresses (`#/p/...`). */
export const addressOf = (link: string): string => fromFragment(link) ?? link;

/** Waits until the page at `address` (a path and query, or an old `#/...` link) is drawn and enhanced. */
export async function drawn(page: Page, address: string): Promise<void> {
  await page.waitForSelector(`main[data-ready=${JSON.stringify(addressOf(address))}]`, WAIT);
}

/** Moves the app to `address` as a link of the interface would, and waits until that page is drawn. */
export async function show(page: Page, address: string): Promise<void> {
  await page.evaluate((a) => {
    const link = document.createElement("a");
    link.setAttribute("href", a);
    document.body.appendChild(link);
    link.click();
    link.remove();
  }, address);
  await drawn(page, address);
}

/** Clicks `selector` (a link to another page) and waits until the page it leads to is drawn; answers its `href`. */
export async function follow(page: Page, selector: string): Promise<string> {
  const href = await page.$eval(selector, (a) => a.getAttribute("href") ?? "");
  await page.click(selector);
  await drawn(page, href);
  return href;
}

/** The address the page shows: its path and query. */
export const here = (page: Page): Promise<string> => page.evaluate(() => location.pathname + location.search);

/** The trimmed texts of the elements matching `selector`. */
export const texts = (page: Page, selector: string): Promise<string[]> =>
  page.$$eval(selector, (els) => els.map((e) => (e.textContent ?? "").trim()));

/** The cell texts of the body rows of the table `selector`. */
export const rows = (page: Page, selector: string): Promise<string[][]> =>
  page.$$eval(
    `${selector} tbody tr`,
    (trs) => trs.map((tr) => Array.from((tr as Json).cells as Json[]).map((c) => (c.textContent ?? "").trim())),
  );

/** Takes a full-page screenshot `name`.png into `dir`, noting its path in `taken`. */
export async function shot(page: Page, dir: string, name: string, taken: string[]): Promise<void> {
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png`, fullPage: true });
  taken.push(path);
}

/** The JSON the node answers at `path`, asked from the test (no browser). */
export async function apiJson(url: string, path: string, init?: RequestInit): Promise<Json> {
  const res = await fetch(url + path, init);
  const body = await res.json();
  assert(res.ok, `${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** How the records table shows `record`: its cells under `columns` (after the record number). */
export function shownCells(record: Record<string, unknown>, columns: string[]): string[] {
  return columns.map((c) => record[c] === undefined || record[c] === null ? "null" : String(record[c]));
}

/**
 * Fails if anything the page shows ran script, opened a dialog, or links
 * anywhere but http(s) or mailto. The app's own charts (`svg.chart` and
 * the shapes and titles in them) are the only SVG allowed.
 */
export async function assertInert(page: Page, watch: PageWatch): Promise<void> {
  const found: Json = await page.evaluate((flag) => {
    const w = globalThis as unknown as Record<string, unknown>;
    const chart = (e: Json) => {
      const tag = e.tagName.toLowerCase();
      const svg = tag === "svg" ? e : e.closest("svg");
      return svg !== null && svg.classList.contains("chart") && ["svg", "rect", "title"].includes(tag);
    };
    const bad = Array.from(document.querySelectorAll("main *") as Json[]).filter((e) =>
      (["SCRIPT", "IMG", "IFRAME", "SVG", "OBJECT", "EMBED", "STYLE"].includes(e.tagName.toUpperCase()) ||
          e.namespaceURI !== "http://www.w3.org/1999/xhtml") && !chart(e) ||
      Array.from(e.attributes as Json[]).some((a) => a.name.toLowerCase().startsWith("on"))
    ).map((e) => e.outerHTML);
    const hrefs = Array.from(document.querySelectorAll("a[href], area[href], main [href]") as Json[]).map((e) =>
      new URL(e.getAttribute("href")!, location.href).protocol
    );
    return { pwned: w[flag], violations: w.__violations, bad, hrefs };
  }, PWNED);
  assertEquals(found.pwned, undefined, "no hostile script ran");
  assertEquals(found.violations, [], "nothing injected for the CSP to block");
  assertEquals(found.bad, [], "no element from the data");
  for (const protocol of found.hrefs) {
    assert(["http:", "https:", "mailto:"].includes(protocol), `a ${protocol} link`);
  }
  assertEquals(watch.dialogs, [], "no dialog opened");
  assertEquals(watch.errors, [], "no uncaught error");
}

/** What a test of the app gets: the page, what it did, the node's URL, the browser, and a screenshot taker. */
export interface AppRun {
  /** The page, at the app's project list to begin with. */
  page: Page;
  /** Dialogs and errors of the page. */
  watch: PageWatch;
  /** The node's URL. */
  url: string;
  /** The browser (for more pages). */
  browser: Browser;
  /** Takes a full-page screenshot of `page` (or of `of`) named `name`. */
  shoot(name: string, of?: Page): Promise<void>;
}

/** Runs `fn` in Chromium against a node with `towns`; its screenshots are checked to be PNGs. */
export async function inApp(fn: (run: AppRun) => Promise<void>): Promise<void> {
  const shots = await screenshotDir();
  const taken: string[] = [];
  try {
    await withUiNode(null, async ({ url }) => {
      await withBrowser(async (browser) => {
        const { page, watch } = await watchedPage(browser);
        await page.goto(`${url}/`);
        await drawn(page, "/");
        await fn({ page, watch, url, browser, shoot: (name, of) => shot(of ?? page, shots.path, name, taken) });
      });
    }, { towns: true });
    assert(taken.length > 0, "screenshots taken");
    for (const path of taken) await assertPng(path);
  } finally {
    await shots.cleanup();
  }
}
