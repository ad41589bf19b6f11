/**
 * The statistics tab (histograms, top values, true/false bars, approximate
 * figures marked) and the SQL box (the column list, a query kept in the
 * fragment and reopened from its link in another page with the same rows,
 * the back button, a result downloaded) in real Chromium.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { watchedPage } from "../../support/browser.ts";
import { apiJson, drawn, follow, here, inApp, rows, show, texts, WAIT } from "./_harness.ts";

Deno.test("browser: the statistics tab shows each column's figures, histograms and top values", async () => {
  await inApp(async ({ page, url, watch, shoot }) => {
    await show(page, "/p/towns");
    assertEquals(await follow(page, "#stats-link"), "/p/towns/statistics?version=1");
    const st = await apiJson(url, "/projects/towns/statistics?version=1");
    assertEquals(
      await page.$$eval(".stat", (s) => s.map((e) => e.getAttribute("data-column"))),
      st.columns.map((c: Json) => c.name),
    );
    assertMatch((await texts(page, "#stats-summary"))[0], /^v1 · 120 records · 6 columns\./);

    const column = (name: string) => st.columns.find((c: Json) => c.name === name);
    const population = column("population");
    assertEquals(population.kind, "number");
    const bars = await page.$$eval(
      '.stat[data-column="population"] svg.histogram rect.bar',
      (rs) => rs.map((r) => Number(r.getAttribute("data-count"))),
    );
    assertEquals(bars, population.histogram.map((b: Json) => b.count));
    assert(bars.length > 1, "a histogram of several bins");
    const titles = await texts(page, '.stat[data-column="population"] svg.histogram rect.bar title');
    assertEquals(titles.length, bars.length, "each bar titled with its range");

    const country = column("country");
    assertEquals(
      await texts(page, '.stat[data-column="country"] ol.bars .value'),
      country.topValues.map((v: Json) => v.value === null ? "null" : String(v.value)),
    );
    assertEquals(
      await texts(page, '.stat[data-column="country"] ol.bars .count'),
      country.topValues.map((v: Json) => String(v.count)),
    );
    const capital = column("capital");
    assertEquals(await texts(page, '.stat[data-column="capital"] ol.bars .count'), [
      String(capital.trueCount),
      String(capital.falseCount),
    ]);
    if (st.approximate.includes("distinct")) {
      assertEquals(await texts(page, '.stat[data-column="country"] .approximate'), [`≈ ${country.distinct}`]);
    }
    await shoot("statistics");

    // A top value links to the records holding it.
    const fr = await follow(page, '.stat[data-column="country"] ol.bars a.value:not(.null)');
    assertMatch(fr, /^\/p\/towns\/data\?version=1&country__exact=/);
    const value = new URLSearchParams(fr.split("?")[1]).get("country__exact");
    const shown = (await rows(page, "#records")).map((r) => r[3]);
    assert(shown.length > 0 && shown.every((c) => c === value), `only ${value}`);
    assertEquals(watch.errors, []);
  });
});

Deno.test("browser: a SQL query is a link: reopened in another page it fills the editor and gives the same rows", async () => {
  const downloads = await mkdtemp(join(tmpdir(), "svc-ui-downloads-"));
  try {
    await inApp(async ({ page, url, browser, watch, shoot }) => {
      await show(page, "/p/towns/sql?version=1");
      await page.waitForSelector('#columns[data-state="ok"]', WAIT);
      const listed = await texts(page, "#columns button.column");
      assertEquals(listed, ["id", "name", "country", "population", "capital", "remark"]);
      assertEquals((await texts(page, "#columns .type"))[0], "BIGINT");

      // The column list puts quoted names at the cursor.
      await page.$eval("#sql", (e) => (e as Json).value = "");
      await page.type("#sql", "SELECT name, ");
      await page.click('#columns button[data-name="population"]');
      await page.type("#sql", " FROM records WHERE country = 'FR' ORDER BY 2 DESC LIMIT 5");
      const sql = `SELECT name, "population" FROM records WHERE country = 'FR' ORDER BY 2 DESC LIMIT 5`;
      assertEquals(await page.$eval("#sql", (e) => (e as Json).value), sql);
      await page.click("#run");
      await page.waitForSelector('#sql-result[data-run="1"]', WAIT);
      assertEquals(await page.$eval("#sql-result", (e) => e.getAttribute("data-state")), "ok");
      const link = await here(page);
      assertEquals(link, "/p/towns/sql?" + new URLSearchParams({ version: "1", sql }));
      await drawn(page, link);
      const result = await rows(page, "#sql-table");
      const api = await apiJson(url, "/projects/towns/query", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql, version: 1 }),
      });
      assertEquals(result, api.rows.map((r: Json[]) => r.map(String)));
      await shoot("sql-link");

      // The link, opened in another page, fills the editor and runs it.
      const { page: other, watch: otherWatch } = await watchedPage(browser);
      await other.goto(`${url}${link}`);
      await drawn(other, link);
      await other.waitForSelector('#sql-result[data-state="ok"]', WAIT);
      assertEquals(await other.$eval("#sql", (e) => (e as Json).value), sql);
      assertEquals(await rows(other, "#sql-table"), result);
      await shoot("sql-link-reopened", other);

      // The result downloaded (fetched, then saved from a Blob) is the API's CSV of it.
      const cdp = await browser.target().createCDPSession();
      await cdp.send("Browser.setDownloadBehavior", {
        behavior: "allow",
        downloadPath: downloads,
        eventsEnabled: true,
      });
      const done = new Promise<string>((resolve) => {
        cdp.on("Browser.downloadProgress", (e: Json) => {
          if (e.state === "completed") resolve(e.filePath);
        });
      });
      await other.click('#sql-downloads button[data-format="csv"]');
      await other.waitForSelector('#sql-download-status[data-state="ok"]', WAIT);
      const saved = await done;
      assertEquals((await readdir(downloads)).length, 1);
      const expected = await fetch(`${url}/projects/towns/query?format=csv`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql, version: 1, limit: 200 }),
      });
      assertEquals(await readFile(saved, "utf8"), await expected.text());
      assertEquals(otherWatch.errors, []);
      await other.close();

      // Back: the SQL box as it was before the run.
      await page.goBack();
      await drawn(page, "/p/towns/sql?version=1");
      assertEquals(await page.$eval("#sql", (e) => (e as Json).value), "SELECT * FROM records LIMIT 20");
      assertEquals(watch.errors, []);
    });
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
});
