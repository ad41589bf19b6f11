/**
 * In real Chromium: a version's changes reached from the project's versions
 * and drawn by the script (contributions, records, the way to the versions
 * around it, the compare form), the README as tall as it is, and the same
 * pages with JavaScript off, as the node wrote them.
 */
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { watchedPage } from "../../support/browser.ts";
import { apiJson, assertInert, drawn, follow, inApp, rows, texts, WAIT } from "./_harness.ts";

/** Makes `notes` on the node at `url` from three contributions (versions 1 to 3). */
async function notes(url: string): Promise<void> {
  const headers = { authorization: "Bearer any-agent-key", "content-type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    assertEquals(res.status, 201, await res.text());
  };
  await post("/projects", {
    slug: "notes",
    title: "Agent notes",
    readme: Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long README.`).join("\n\n"),
    schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }], allowExtra: false },
  });
  for (const [from, n] of [[0, 3], [3, 2], [5, 4]]) {
    await post("/projects/notes/contribute", {
      records: Array.from({ length: n }, (_, i) => ({ id: from + i, text: `note ${from + i}` })),
    });
  }
}

Deno.test("browser: a version's changes from the project's versions; the README as tall as it is; no script needed", async () => {
  await inApp(async ({ page, url, watch, browser, shoot }) => {
    await notes(url);
    await page.goto(`${url}/p/notes`);
    await drawn(page, "/p/notes");
    const readme = await page.$eval("#readme", (e) => ({ client: e.clientHeight, scroll: e.scrollHeight }));
    assertEquals(readme.client, readme.scroll, "the README shows whole, in no scrolling box");
    assertEquals(await follow(page, '#versions a.diff[href="/p/notes/diff?from=2&to=3"]'), "/p/notes/diff?from=2&to=3");
    assertEquals((await texts(page, "#diff-summary"))[0], "v3 added 4 records, from 1 contribution.");
    const api = await apiJson(url, "/projects/notes/diff?from=2&to=3", { headers: { authorization: "Bearer k" } });
    assertEquals(await rows(page, "#diff-records"), api.records.map((r: Json) => [String(r.id), r.text]));
    await shoot("diff");
    assertEquals(await follow(page, "#diff-earlier"), "/p/notes/diff?from=1&to=2");
    assertEquals(await rows(page, "#fragments").then((r) => r.map((c) => c[0])), ["v2"]);

    // The compare form, sent by the script: any two versions.
    await page.select("#compare-from", "0");
    await page.select("#compare-to", "3");
    await page.click("#compare-go");
    await drawn(page, "/p/notes/diff?from=0&to=3");
    assertEquals((await rows(page, "#diff-records")).length, 9);
    await assertInert(page, watch);

    // JavaScript off: the node's own page holds the same records and links.
    const off = await watchedPage(browser);
    await off.page.setJavaScriptEnabled(false);
    await off.page.goto(`${url}/p/notes/diff?from=2&to=3`);
    await off.page.waitForSelector("#diff-records", WAIT);
    assertEquals(await rows(off.page, "#diff-records"), api.records.map((r: Json) => [String(r.id), r.text]));
    assert(await off.page.$eval("main", (m) => !m.hasAttribute("data-ready")), "no script ran");
    await off.page.goto(`${url}/p/towns/data?version=1&sort_desc=population&limit=3`);
    const top = await rows(off.page, "#records");
    const apiTop = await apiJson(url, "/projects/towns/data?version=1&sort_desc=population&limit=3");
    assertEquals(top.map((r) => r[4]), apiTop.records.map((r: Json) => String(r.population)));
    // The search form works as a form: the node folds it into the view's address.
    await off.page.type("#q", "town-1");
    await Promise.all([off.page.waitForNavigation(WAIT), off.page.click("#apply")]);
    assertMatch(new URL(off.page.url()).search, /^\?version=1&q=town-1&sort_desc=population&limit=3$/);
    await shoot("records-without-script", off.page);
    await off.page.close();
  });
});
