/**
 * Exploring a version in real Chromium, as a Datasette user would: sort by
 * a header, the filter row, search, page size and a jump to a page, a
 * record's own page, facets (a click on a value filters), and downloads of
 * the view compared with the API's rows. Screenshots of each (kept in
 * `SVC_UI_SCREENSHOTS` when set).
 */
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { apiJson, drawn, follow, inApp, rows, show, shownCells, texts, TOWN_FIELDS, WAIT } from "./_harness.ts";

const COLUMNS = TOWN_FIELDS.map((f) => f.name);

/** The records table's rows without the record number. */
const cells = async (page: Parameters<typeof rows>[0]) => (await rows(page, "#records")).map((r) => r.slice(1));

Deno.test("browser: sort by a header, the filter row, search, page size and jump, a record's own page", async () => {
  await inApp(async ({ page, url, watch, shoot }) => {
    await show(page, "/p/towns/data");
    const population = '#records tr.head th[data-column="population"]';

    // A click on a header sorts ascending, a second one descending: the first page is the API's.
    assertEquals(await follow(page, `${population} a.sort`), "/p/towns/data?version=1&sort=population");
    let api = await apiJson(url, "/projects/towns/data?version=1&sort=population&limit=50");
    assertEquals(await cells(page), api.records.map((r: Json) => shownCells(r, COLUMNS)));
    assertEquals(await page.$eval(population, (e) => e.getAttribute("aria-sort")), "ascending");
    assertEquals(await follow(page, `${population} a.sort`), "/p/towns/data?version=1&sort_desc=population");
    api = await apiJson(url, "/projects/towns/data?version=1&sort_desc=population&limit=50");
    assertEquals(await cells(page), api.records.map((r: Json) => shownCells(r, COLUMNS)));
    assertEquals(await page.$eval(population, (e) => e.getAttribute("aria-sort")), "descending");
    assertEquals(await texts(page, `${population} .arrow`), ["▼"]);
    await shoot("view-sorted");

    // The filter row: population ≥ 50000, Enter applies it; the sort stays.
    await page.select('#records tr.filters select[data-column="population"]', "gte");
    await page.type('#records tr.filters input[data-column="population"]', "50000");
    await page.keyboard.press("Enter");
    const filtered = "/p/towns/data?version=1&population__gte=50000&sort_desc=population";
    await drawn(page, filtered);
    api = await apiJson(url, "/projects/towns/data?version=1&population__gte=50000&sort_desc=population&limit=50");
    assertEquals(await cells(page), api.records.map((r: Json) => shownCells(r, COLUMNS)));
    assert(api.total > 0 && api.total < 120, `a real filter (${api.total})`);
    assertEquals(await texts(page, "#active-filters .chip span"), ["population ≥ 50000"]);
    assertEquals(await texts(page, "#range"), [`v1 · records 1–${Math.min(50, api.total)} of ${api.total}`]);
    assertEquals(
      await page.$eval('#records tr.filters input[data-column="population"]', (e) => (e as Json).value),
      "50000",
    );
    await shoot("view-filtered");

    // Search with the filter.
    await page.type("#q", "town-1");
    await page.click("#apply");
    const searched = "/p/towns/data?version=1&population__gte=50000&q=town-1&sort_desc=population";
    await drawn(page, searched);
    api = await apiJson(url, "/projects/towns/data?version=1&population__gte=50000&q=town-1&sort_desc=population");
    assertEquals(await cells(page), api.records.map((r: Json) => shownCells(r, COLUMNS)));
    assert(api.records.every((r: Json) => r.name.includes("town-1")), "every row matches");
    assertEquals(await texts(page, "#active-filters .chip span"), ["population ≥ 50000", "search: town-1"]);
    await shoot("view-searched");
    assertEquals(await follow(page, "#clear-view"), "/p/towns/data?version=1");
    assertEquals((await cells(page)).length, 50);

    // Page size, then a jump to page 5.
    await show(page, "/p/cities/data?version=2");
    await page.select("#page-size", "25");
    await drawn(page, "/p/cities/data?version=2&limit=25");
    assertEquals((await cells(page)).length, 25);
    assertEquals(await texts(page, "#pages"), ["of 24"]);
    await page.$eval("#page-number", (e) => (e as Json).value = "");
    await page.type("#page-number", "5");
    await page.click("#go");
    await drawn(page, "/p/cities/data?version=2&limit=25&offset=100");
    const page5 = await cells(page);
    assertEquals([page5.length, page5[0][0], page5[24][0]], [25, "100", "124"]);
    assertEquals(await texts(page, "#range"), ["v2 · records 101–125 of 600"]);
    await shoot("view-page-size-jump");

    // A record's own page, from a filtered, sorted view: fields down the page, the API's record.
    const view = "/p/towns/data?version=1&country__exact=FR&sort_desc=population";
    await show(page, view);
    const shown = await cells(page);
    assertEquals(
      await follow(page, "#records tbody tr:nth-child(3) td.rownum a"),
      "/p/towns/record?version=1&country__exact=FR&sort_desc=population&offset=2",
    );
    const one = await apiJson(
      url,
      "/projects/towns/data?version=1&country__exact=FR&sort_desc=population&offset=2&limit=1",
    );
    const fields = await rows(page, "#record");
    assertEquals(fields.map((r) => r[0]), TOWN_FIELDS.map((f) => f.name + f.type));
    assertEquals(fields.map((r) => r[1]), shownCells(one.records[0], COLUMNS));
    assertEquals(fields.map((r) => r[1]), shown[2]);
    assertEquals(await texts(page, "#record-at"), ["v1 · record 3 of 24 in this view"]);
    await shoot("record");
    await follow(page, "#next-record");
    assertEquals((await rows(page, "#record")).map((r) => r[1]), shown[3]);
    assertEquals(await follow(page, "#back-to-view"), view);
    assertEquals(watch.errors, []);
  });
});

/** What a download link's URL answers, fetched by the page (its cookie, its origin). */
async function fetchInPage(page: Parameters<typeof rows>[0], href: string): Promise<Json> {
  return await page.evaluate(async (h) => {
    const res = await fetch(h);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      disposition: res.headers.get("content-disposition"),
      text: new TextDecoder().decode(bytes),
      magic: Array.from(bytes.slice(0, 4)),
    };
  }, href);
}

/** Records without their null fields (the data API leaves them out; a download may not). */
const noNulls = (records: Json[]) =>
  records.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined)));

Deno.test("browser: facets filter by a click; a view's downloads are the API's rows", async () => {
  await inApp(async ({ page, url, watch, shoot }) => {
    await show(page, "/p/towns/data?version=1&facet=country");
    const api = await apiJson(url, "/projects/towns/data?version=1&facet=country&limit=50");
    const facet = '.facet[data-column="country"]';
    assertEquals(
      await texts(page, `${facet} li`),
      api.facets[0].values.map((v: Json) => `${v.value === null ? "null" : v.value} ${v.count}`),
    );
    const fr = await follow(page, `${facet} a.facet-value[data-value="FR"]`);
    assertEquals(fr, "/p/towns/data?version=1&country__exact=FR&facet=country");
    const shown = await cells(page);
    assertEquals(shown.length, 24);
    assert(shown.every((r) => r[2] === "FR"), "only FR");
    assertEquals(await texts(page, `${facet} li.selected a`), ["FR"]);
    assertEquals(await texts(page, "#active-filters .chip span"), ["country = FR"]);
    await page.select("#add-facet", "capital");
    await drawn(page, fr + "&facet=capital");
    const both = await apiJson(url, "/projects/towns/data?version=1&country__exact=FR&facet=country&facet=capital");
    assertEquals(
      await texts(page, '.facet[data-column="capital"] li'),
      both.facets[1].values.map((v: Json) => `${v.value} ${v.count}`),
    );
    const stats = await apiJson(url, "/projects/towns/statistics?version=1");
    const suggested = stats.suggestedFacets.filter((c: string) => c !== "country" && c !== "capital");
    if (suggested.length > 0) {
      await page.waitForSelector("#suggested-facets a.suggested", WAIT);
      assertEquals(await texts(page, "#suggested-facets a.suggested"), suggested);
    }
    await shoot("facets");
    await follow(page, `${facet} li.selected a`);
    assertEquals((await cells(page)).length, 50, "a second click on a value removes its filter");

    // Downloads of a filtered, sorted view: every record of it, in order, in four formats.
    const view = "version=1&country__exact=FR&sort_desc=population";
    await show(page, `/p/towns/data?${view}`);
    const links: [string, string][] = await page.$$eval(
      "#downloads a",
      (as) => as.map((a): [string, string] => [a.getAttribute("data-format") ?? "", (a as Json).href]),
    );
    assertEquals(links.map((l) => l[0]), ["csv", "json", "jsonl", "parquet"]);
    for (const [format, href] of links) assertEquals(href, `${url}/projects/towns/data?${view}&format=${format}`);
    const expected = (await apiJson(url, `/projects/towns/data?${view}&limit=1000`)).records;
    assertEquals(expected.length, 24);
    const json = await fetchInPage(page, links[1][1]);
    assertEquals(json.status, 200);
    assertMatch(String(json.disposition), /attachment/);
    const body = JSON.parse(json.text);
    assertEquals(noNulls(Array.isArray(body) ? body : body.records), noNulls(expected));
    const jsonl = await fetchInPage(page, links[2][1]);
    assertEquals(noNulls(jsonl.text.trim().split("\n").map((l: string) => JSON.parse(l))), noNulls(expected));
    const csv = await fetchInPage(page, links[0][1]);
    const lines = csv.text.trim().split(/\r?\n/);
    assertEquals(lines[0].split(",").map((c: string) => c.replace(/^"|"$/g, "")), COLUMNS);
    assertEquals(lines.slice(1).map((l: string) => l.split(",")[0]), expected.map((r: Json) => String(r.id)));
    const parquet = await fetchInPage(page, links[3][1]);
    assertEquals([parquet.status, parquet.magic], [200, [0x50, 0x41, 0x52, 0x31]], "PAR1");
    await shoot("downloads");
    assertEquals(watch.errors, []);
  });
});
