/**
 * What must stay safe and readable while exploring, in real Chromium:
 * hostile values (a record value that is markup, a value that is a
 * `javascript:` URL) shown as text in records, facets, statistics, a
 * record's page and SQL results, nothing run, no dialog; a README's pipe
 * table rendered as a table, its links kept to safe ones; error pages with a
 * way back.
 */
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { assertInert, drawn, follow, inApp, JS_VALUE, rows, show, texts, TOWN_HOSTILE, WAIT } from "./_harness.ts";

Deno.test("browser: hostile values stay text in records, facets, statistics, a record's page and SQL", async () => {
  await inApp(async ({ page, watch, shoot }) => {
    await show(page, "/p/towns/data?version=1&facet=country&facet=remark");
    const shown = (await rows(page, "#records")).map((r) => r.slice(1));
    assertEquals(shown[7][5], TOWN_HOSTILE);
    assertEquals(shown[3][2], JS_VALUE);
    assertEquals(await texts(page, '.facet[data-column="remark"] a.facet-value'), ["ok", TOWN_HOSTILE]);
    const jsLink = '.facet[data-column="country"] a.facet-value[data-value="javascript:alert(1)"]';
    assertEquals(
      await page.$eval(jsLink, (a) => a.getAttribute("href")),
      "/p/towns/data?version=1&country__exact=javascript%3Aalert%281%29&facet=country&facet=remark",
    );
    await assertInert(page, watch);
    await shoot("hostile-facets");

    // Following the javascript: value filters by it, as text.
    await follow(page, jsLink);
    const filtered = (await rows(page, "#records")).map((r) => r[3]);
    assert(filtered.length === 24 && filtered.every((c) => c === JS_VALUE), "the records holding it");
    assertEquals(await texts(page, "#active-filters .chip span"), [`country = ${JS_VALUE}`]);
    await page.select('#records tr.filters select[data-column="remark"]', "exact");
    await page.type('#records tr.filters input[data-column="remark"]', TOWN_HOSTILE);
    await page.click("#apply");
    const both = new URLSearchParams([
      ["version", "1"],
      ["country__exact", JS_VALUE],
      ["remark__exact", TOWN_HOSTILE],
      ["facet", "country"],
      ["facet", "remark"],
    ]);
    await drawn(page, `/p/towns/data?${both}`);
    assertEquals((await rows(page, "#records")).length, 0, "record 7 is in IT");
    assertEquals(await texts(page, "#active-filters .chip span"), [
      `country = ${JS_VALUE}`,
      `remark = ${TOWN_HOSTILE}`,
    ]);
    assertEquals(
      await page.$eval('#records tr.filters input[data-column="remark"]', (e) => (e as Json).value),
      TOWN_HOSTILE,
    );
    await assertInert(page, watch);

    await show(page, "/p/towns/statistics?version=1");
    assert((await texts(page, '.stat[data-column="remark"] ol.bars .value')).includes(TOWN_HOSTILE));
    assert((await texts(page, '.stat[data-column="country"] ol.bars .value')).includes(JS_VALUE));
    await assertInert(page, watch);
    await shoot("hostile-statistics");

    await show(page, "/p/towns/record?version=1&offset=7");
    assertEquals((await rows(page, "#record"))[5], ["remarkstring", TOWN_HOSTILE]);
    await assertInert(page, watch);

    await show(
      page,
      "/p/towns/sql?version=1&sql=" + encodeURIComponent("SELECT remark, country FROM records WHERE id = 7"),
    );
    await page.waitForSelector('#sql-result[data-state="ok"]', WAIT);
    assertEquals(await rows(page, "#sql-table"), [[TOWN_HOSTILE, "IT"]]);
    await assertInert(page, watch);
    await shoot("hostile-sql");

    // The hostile project's own column name, in the header, the filter row and the record page.
    await show(page, "/p/hostile/data?version=1&facet=" + encodeURIComponent("<i onmouseover=alert(8)>col</i>"));
    await page.waitForSelector(".facet li", WAIT);
    await assertInert(page, watch);
    await follow(page, "#records tbody tr:nth-child(1) td.rownum a");
    await assertInert(page, watch);
  });
});

Deno.test("browser: a README's pipe table is a table; its links are safe ones", async () => {
  await inApp(async ({ page, watch, shoot }) => {
    await show(page, "/p/towns");
    assertEquals(await texts(page, "#readme table thead th"), ["Country", "Towns", "Share"]);
    assertEquals(await page.$$eval("#readme table th", (ths) => ths.map((t) => t.getAttribute("align"))), [
      "left",
      "right",
      "center",
    ]);
    assertEquals(
      await page.$$eval(
        "#readme table tbody tr:first-child td",
        (tds) => tds.map((t) => (globalThis as Json).getComputedStyle(t).textAlign),
      ),
      ["left", "right", "center"],
      "aligned as the delimiter row says",
    );
    assertEquals(await rows(page, "#readme table"), [["FR", "24", "20 %"], ["DE | AT", "24", "20 %"]]);
    assertEquals(await texts(page, "#readme table code"), ["DE"]);
    assertEquals(await texts(page, "#readme table strong"), ["20 %"]);
    assertEquals(await page.$$eval("#readme a", (as) => as.map((a) => a.getAttribute("href"))), [
      "#/p/cities",
      "https://example.com/towns",
    ]);
    await assertInert(page, watch);
    await shoot("readme-table");
    assertEquals(await follow(page, '#readme a[href="#/p/cities"]'), "#/p/cities");
  });
});

Deno.test("browser: error pages say what went wrong and give a way back", async () => {
  await inApp(async ({ page, url, watch, shoot }) => {
    await show(page, "/p/towns/data?version=1&sort=population");
    const bad = "/p/towns/data?version=1&population__gt=many";
    await show(page, bad);
    assertEquals(await page.$eval("main", (m) => m.getAttribute("data-view")), "error");
    const refused = await fetch(`${url}/projects/towns/data?version=1&population__gt=many`);
    const expected = `${refused.status}: ${(await refused.json() as Json).error}`;
    assertMatch(expected, /^400: /);
    assertEquals(await texts(page, "main .error"), [expected]);
    assertEquals(await page.$eval("#back", (a) => a.getAttribute("href")), "/p/towns/data?version=1&sort=population");
    assertEquals(await page.$eval("#plain-records", (a) => a.getAttribute("href")), "/p/towns/data?version=1");
    assertEquals(await page.$eval("#to-project", (a) => a.getAttribute("href")), "/p/towns");
    assertEquals(await page.$eval("#to-projects", (a) => a.getAttribute("href")), "/");
    await shoot("error-bad-filter");
    await follow(page, "#back");
    assertEquals((await rows(page, "#records")).length, 50);

    await show(page, "/p/no-such-project");
    assertEquals(await texts(page, "#error-title"), ["Not found"]);
    assertMatch((await texts(page, "main .error"))[0], /^404: /);
    assertEquals(await page.$$eval("#to-project", (a) => a.length), 0, "no link to the missing project");
    await shoot("error-not-found");
    assertEquals(await follow(page, "#to-projects"), "/");

    await show(page, "/p/towns/nowhere");
    assertEquals(await texts(page, "#error-title"), ["Not found"]);
    assertEquals(await page.$eval("#back", (a) => a.getAttribute("href")), "/");
    await page.goto(`${url}/#/p/towns/record?version=1&offset=999`);
    await drawn(page, "/p/towns/record?version=1&offset=999");
    assertEquals(await texts(page, "#no-record"), ["No record at offset 999."]);
    assertEquals(
      await page.$eval("#back-to-view", (a) => a.getAttribute("href")),
      "/p/towns/data?version=1&offset=950",
    );
    assertEquals(watch.errors, []);
  });
});
