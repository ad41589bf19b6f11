/**
 * The browser interface in a real headless Chromium against a real node over
 * HTTP: every page, paging, SQL, the MCP recipe, hostile data shown inert,
 * and the login of a node with a token. Waits are on DOM conditions (the app
 * marks `<main data-ready="<fragment>">` when a view is drawn), never sleeps.
 * Screenshots go to a temporary folder (or `SVC_UI_SCREENSHOTS`, kept).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { assertPng, screenshotDir, watchedPage, withBrowser } from "../../support/browser.ts";
import { HOSTILE_VALUE } from "../../support/hostile_project.ts";
import { assertInert, drawn, rows, shot, show, texts, WAIT, withUiNode } from "./_harness.ts";

/** The page's document, as the functions run by `page.evaluate` see it (Deno's types have no DOM). */
declare const document: Json;

const TOKEN = "ui-token-0123456789abcdef";

Deno.test("browser: projects, project page, paged records, SQL, MCP recipe; hostile data stays text", async () => {
  const shots = await screenshotDir();
  const taken: string[] = [];
  try {
    await withUiNode(null, async ({ url }) => {
      await withBrowser(async (browser) => {
        const { page, watch } = await watchedPage(browser);
        const first = await page.goto(`${url}/`);
        assertEquals(first?.status(), 200);
        assertEquals(first?.headers()["content-security-policy"]?.startsWith("default-src 'none'"), true);
        await drawn(page, "/");

        // The project list.
        const list = await rows(page, "#projects");
        assertEquals(list.map((r) => r[1]), ["bare", "cities", "hostile"]);
        assertEquals(list[1].slice(0, 6), ["World cities", "cities", "600", "2", "2", "CC-BY-4.0"]);
        assertEquals(list[2][0], "<img src=x onerror=alert(9)> Hostile", "a hostile title as text");
        assertEquals(await texts(page, "#nav #logout"), [], "no login, so no logout, without a token");
        await shot(page, shots.path, "projects", taken);

        // A project page.
        await page.click('#projects a[href="/p/cities"]');
        await drawn(page, "/p/cities");
        assertEquals(await texts(page, "#title"), ["World cities"]);
        const facts = await texts(page, "#facts dt, #facts dd");
        assertEquals(facts.slice(0, 6), ["License", "CC-BY-4.0", "Tags", "geo", "Versions here", "2, 1"]);
        assertEquals(await texts(page, "#readme"), ["Cities of the world, one record per city."]);
        assertEquals((await rows(page, "#schema")).map((r) => r.join(" ")), [
          "id integer yes",
          "name string yes",
          "population integer yes",
          "score number yes",
          "note string no",
        ]);
        const versions = await rows(page, "#versions");
        assertEquals(versions.map((r) => [r[0], r[2], r[3], r[4]]), [
          ["v2", "600", "3", "signed by https://origin.example (key 0123456789abcdef)"],
          ["v1", "250", "2", "unsigned"],
        ]);
        const links: Json = await page.$$eval(
          "#export, #manifest, #parts a.part",
          (as) => as.map((a) => (a as Json).href),
        );
        assertEquals(links.slice(0, 2), [
          `${url}/projects/cities/export?version=2`,
          `${url}/projects/cities/manifest?version=2`,
        ]);
        assertEquals(links.length, 5, "three part links");
        for (const part of links.slice(2)) {
          assertMatch(part, new RegExp(`^${url}/parts/cities/[0-9a-f]{64}\\.parquet$`));
        }
        const fetched: Json = await page.evaluate(async (hrefs: string[]) => {
          const out = [];
          for (const h of hrefs) {
            const res = await fetch(h);
            out.push([res.status, res.headers.get("content-type"), (await res.arrayBuffer()).byteLength > 0]);
          }
          return out;
        }, [links[0], links[2]]);
        assertEquals(fetched, [[200, "application/gzip", true], [200, "application/vnd.apache.parquet", true]]);
        await shot(page, shots.path, "project", taken);

        // Records, with column types, paged forward and back.
        await page.click("#browse");
        await drawn(page, "/p/cities/data?version=2");
        const heads = await texts(page, "#records thead tr.head th[data-column]");
        assertEquals(heads, ["idinteger", "namestring", "populationinteger", "scorenumber", "notestring"]);
        assertEquals(await texts(page, "#records thead tr.head th .type"), [
          "integer",
          "string",
          "integer",
          "number",
          "string",
        ]);
        let page1 = (await rows(page, "#records")).map((r) => r.slice(1));
        assertEquals([page1.length, page1[0], page1[3][4]], [50, ["0", "city-0", "0", "0", "null"], "null"]);
        assertEquals(await texts(page, "#range"), ["v2 · records 1–50 of 600"]);
        await shot(page, shots.path, "records", taken);
        await page.click("#next");
        await drawn(page, "/p/cities/data?version=2&offset=50");
        const page2 = (await rows(page, "#records")).map((r) => r.slice(1));
        assertEquals([page2.length, page2[0][0], page2[49][0]], [50, "50", "99"]);
        assertEquals(await page.$eval("#range", (e) => e.getAttribute("data-offset")), "50");
        await shot(page, shots.path, "records-page-2", taken);
        await page.click("#prev");
        await drawn(page, "/p/cities/data?version=2");
        page1 = (await rows(page, "#records")).map((r) => r.slice(1));
        assertEquals(page1[0][0], "0");
        await show(page, "/p/cities/data?version=2&offset=550&limit=50");
        assertEquals(
          await page.$eval("#next", (e) => e.getAttribute("aria-disabled")),
          "true",
          "no page after the last",
        );

        // The SQL box: a count, then an error.
        await show(page, "/p/cities/sql");
        await page.$eval("#sql", (e) => (e as Json).value = "");
        await page.type("#sql", "SELECT count(*) FROM records");
        await page.click("#run");
        await page.waitForSelector('#sql-result[data-run="1"]', WAIT);
        assertEquals(await page.$eval("#sql-result", (e) => e.getAttribute("data-state")), "ok");
        assertEquals(await rows(page, "#sql-table"), [["600"]]);
        assertEquals(await texts(page, "#sql-table th .type"), ["BIGINT"]);
        assertMatch((await texts(page, "#sql-summary"))[0], /^1 row · v2 · \d+ ms$/);
        await shot(page, shots.path, "sql", taken);

        const refused = await fetch(`${url}/projects/cities/query`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ sql: "SELEC nope" }),
        });
        const expected = `${refused.status}: ${(await refused.json() as Json).error}`;
        await page.$eval("#sql", (e) => (e as Json).value = "SELEC nope");
        await page.click("#run");
        await page.waitForSelector('#sql-result[data-run="2"]', WAIT);
        assertEquals(await page.$eval("#sql-result", (e) => e.getAttribute("data-state")), "error");
        assertEquals(await texts(page, "#sql-result .error"), [expected]);
        assert(expected.startsWith("400: "), expected);
        await shot(page, shots.path, "sql-error", taken);

        // The MCP recipe.
        await page.click('#nav a[href="/ui/mcp"]');
        await drawn(page, "/ui/mcp");
        assertEquals(await texts(page, "#mcp-url"), [`${url}/mcp`]);
        const config = JSON.parse((await texts(page, "#mcp-config"))[0]);
        assertEquals(config, { mcpServers: { svc: { type: "http", url: `${url}/mcp` } } });
        await shot(page, shots.path, "mcp", taken);

        // Hostile README, title, license, column name and values: shown as text, nothing runs.
        await show(page, "/p/hostile");
        const readme = (await texts(page, "#readme"))[0];
        for (
          const shown of [
            "<script>window.__pwned = 'readme heading'</script>",
            "<img src=x onerror=\"window.__pwned = 'readme img'; alert(1)\">",
            "[x](javascript:alert(1))",
            "[y](javascript:window.__pwned=1)",
            "<b onmouseover=alert(3)>code</b>",
          ]
        ) assert(readme.includes(shown), `README shows ${shown}`);
        assertEquals(await page.$$eval("#readme a", (as) => as.map((a) => a.getAttribute("href"))), [
          "https://example.com/docs",
        ]);
        assertEquals((await texts(page, "#title"))[0], "<img src=x onerror=alert(9)> Hostile");
        assertEquals((await texts(page, "#facts dd"))[0], "<script>alert(10)</script>");
        await assertInert(page, watch);
        await shot(page, shots.path, "hostile-project", taken);
        await show(page, "/p/hostile/data");
        const cells = await rows(page, "#records");
        assertEquals(cells[0], ["1", "0", HOSTILE_VALUE, "<script>window.__pwned = 'cell'</script>"]);
        assertEquals(
          (await texts(page, "#records thead tr.head th[data-column]"))[2],
          "<i onmouseover=alert(8)>col</i>string",
        );
        await assertInert(page, watch);
        await shot(page, shots.path, "hostile-records", taken);
      });
    });
    assertEquals(taken.length, 9);
    for (const path of taken) await assertPng(path);
  } finally {
    await shots.cleanup();
  }
});

Deno.test("browser: a node with a token asks for it; the cookie works from the node's own pages only", async () => {
  const shots = await screenshotDir();
  const taken: string[] = [];
  const other = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("<!doctype html><title>another page on this machine</title>", {
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    await withUiNode(TOKEN, async ({ url, log }) => {
      await withBrowser(async (browser) => {
        const { page, watch } = await watchedPage(browser);
        await page.goto(`${url}/`);
        await page.waitForSelector("form#login", WAIT);
        assertEquals(await page.$$eval("script", (s) => s.length), 0, "the login page runs no script");
        await shot(page, shots.path, "login", taken);

        await page.type("#token", "wrong-token-0123456789");
        const [wrong] = await Promise.all([page.waitForNavigation(), page.click("#login button")]);
        assertEquals(wrong?.status(), 401);
        assertEquals(await texts(page, "#login-error"), ["That is not this node's token."]);
        assertEquals(await page.cookies(), []);
        await shot(page, shots.path, "login-refused", taken);

        await page.type("#token", TOKEN);
        await Promise.all([page.waitForNavigation(), page.click("#login button")]);
        await drawn(page, "/");
        assertEquals((await rows(page, "#projects")).length, 3);
        const [cookie] = await page.cookies();
        const port = new URL(url).port;
        assertEquals([cookie.name, cookie.httpOnly, cookie.sameSite, cookie.path, cookie.secure], [
          `svc_node_${port}`,
          true,
          "Strict",
          "/",
          false,
        ]);
        assert(!cookie.value.includes(TOKEN), "the cookie is not the token");
        assertEquals(await page.evaluate(() => document.cookie), "", "scripts cannot read it");

        // The JSON API answers the page with the cookie alone.
        const api: Json = await page.evaluate(async () => {
          const list = await fetch("/projects");
          const query = await fetch("/projects/cities/query", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ sql: "SELECT count(*) FROM records" }),
          });
          return [list.status, list.headers.get("content-type"), query.status, (await query.json()).rows];
        });
        assertEquals(api, [200, "application/json; charset=utf-8", 200, [[600]]]);

        // A download link is a plain link: the login cookie goes with it (a same-origin navigation).
        const saved = await mkdtemp(join(tmpdir(), "svc-ui-token-downloads-"));
        try {
          const cdp = await browser.target().createCDPSession();
          await cdp.send("Browser.setDownloadBehavior", {
            behavior: "allow",
            downloadPath: saved,
            eventsEnabled: true,
          });
          const done = new Promise<string>((resolve) => {
            cdp.on("Browser.downloadProgress", (e: Json) => {
              if (e.state === "completed") resolve(e.filePath);
            });
          });
          await show(page, "/p/cities/data?version=2&id__lt=5&sort_desc=id");
          await page.click('#downloads a[data-format="csv"]');
          const csv = (await readFile(await done, "utf8")).trim().split(/\r?\n/);
          assertEquals(csv.map((l) => l.split(",")[0]), ["id", "4", "3", "2", "1", "0"]);
        } finally {
          await rm(saved, { recursive: true, force: true });
        }

        await page.click('#nav a[href="/ui/mcp"]');
        await drawn(page, "/ui/mcp");
        const config = JSON.parse((await texts(page, "#mcp-config"))[0]);
        assertEquals(config.mcpServers.svc.headers, { Authorization: "Bearer <your node token>" });
        await shot(page, shots.path, "mcp-token", taken);

        // Another page on this machine (same site, other port): its requests carry the cookie, which counts for nothing.
        const otherUrl = `http://127.0.0.1:${other.addr.port}/`;
        const { page: elsewhere } = await watchedPage(browser);
        await elsewhere.goto(otherUrl);
        const tried: Json = await elsewhere.evaluate(async (node) => {
          try {
            const res = await fetch(`${node}/projects`, { credentials: "include" });
            return res.status;
          } catch (e) {
            return String(e);
          }
        }, url);
        assertMatch(String(tried), /TypeError|401/);
        assert(log.some((l) => / GET \/projects 401 /.test(l)), "the node refused it");
        await Promise.all([
          elsewhere.waitForNavigation(),
          elsewhere.evaluate((node) => {
            const form = document.createElement("form");
            form.method = "post";
            form.action = `${node}/ui/logout`;
            document.body.appendChild(form);
            form.submit();
          }, url),
        ]);
        assertMatch(await elsewhere.evaluate(() => document.body.textContent ?? ""), /own page/);
        assert(log.some((l) => / POST \/ui\/logout 403 /.test(l)), "a logout from another page is refused");
        await elsewhere.close();
        assertEquals(await page.evaluate(async () => (await fetch("/projects")).status), 200, "still logged in");

        // Logging out.
        await Promise.all([page.waitForNavigation(), page.click("#logout button")]);
        await page.waitForSelector("form#login", WAIT);
        assertEquals(await page.cookies(), []);
        assertEquals(await page.evaluate(async () => (await fetch("/projects")).status), 401);
        assertEquals(watch.dialogs, []);
        assertEquals(await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations), []);
      });
    });
    assertEquals(taken.length, 3);
    for (const path of taken) await assertPng(path);
  } finally {
    await other.shutdown();
    await shots.cleanup();
  }
});
