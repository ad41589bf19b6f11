/**
 * The interface's pages read as a program without a script reads them
 * (curl, an agent's fetch tool, a text browser): plain HTTP, no JavaScript.
 * Each page holds its data: the projects, a project, a page of records with
 * the view of its address applied (sort, filters, search, facets, paging),
 * a record, the statistics, and what versions added (the diff, linked from
 * the project's versions); every value from the data is escaped, the pages
 * carry the interface's CSP, the view's forms work as forms, and a node with
 * a token gives the login page to a caller without it.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, type Json } from "../../support/assert.ts";
import { elementById, hrefs, tableRows, textOf } from "../../support/html_text.ts";
import { HOSTILE_VALUE } from "../../support/hostile_project.ts";
import { StoreWriter } from "../../support/store_fixture.ts";
import { UI_CSP } from "../../../src/node/ui/routes.ts";
import { TOWN_HOSTILE, withUiNode } from "./_harness.ts";

/** A page read as curl reads it: no script, no cookie. */
async function page(url: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

async function apiJson(url: string, path: string, init?: RequestInit): Promise<Json> {
  const res = await fetch(`${url}${path}`, init);
  assert(res.ok, `${path}: ${res.status}`);
  return await res.json();
}

/** The body cells of `#records` without the record number. */
const recordCells = (html: string) => tableRows(html, "records").map((r) => r.slice(1));

Deno.test("pages hold their data without a script: projects, a project, records with the address's view, a record", async () => {
  await withUiNode(null, async ({ url }) => {
    const front = await page(url, "/");
    assertEquals([front.status, front.headers.get("content-type")], [200, "text/html; charset=utf-8"]);
    assertEquals(front.headers.get("content-security-policy"), UI_CSP);
    const projects = tableRows(front.html, "projects");
    assertEquals(projects.map((r) => r[1]), ["bare", "cities", "hostile", "towns"]);
    assertEquals(projects.find((r) => r[1] === "towns")?.[2], "120", "the records of towns");
    assert(!front.html.includes("Loading"), "no page waits for a script");

    const towns = await page(url, "/p/towns");
    assertEquals(textOf(elementById(towns.html, "h1", "title")!), "Towns");
    assertEquals(tableRows(towns.html, "schema").map((r) => r[0]), [
      "id",
      "name",
      "country",
      "population",
      "capital",
      "remark",
    ]);
    assertEquals(textOf(elementById(towns.html, "div", "readme")!).includes("DE | AT"), true, "the README's table");

    // A view from the address: filters, search and sort applied, as the API answers the same view.
    const view = "version=1&country__exact=FR&q=town-1&sort_desc=population&limit=5";
    const data = await page(url, `/p/towns/data?${view}`);
    assertEquals(data.status, 200);
    const api = await apiJson(url, `/projects/towns/data?${view}`);
    const columns = ["id", "name", "country", "population", "capital", "remark"];
    assertEquals(recordCells(data.html), api.records.map((r: Json) => columns.map((c) => String(r[c] ?? "null"))));
    assert(api.records.length > 0 && api.records.every((r: Json) => r.country === "FR"));
    assertEquals(
      textOf(elementById(data.html, "span", "range")!),
      `v1 · records 1–${api.records.length} of ${api.total}`,
    );
    assertEquals(
      textOf(elementById(data.html, "ul", "active-filters")!).replaceAll("×", "|"),
      "country = FR|search: town-1|",
    );
    assert(hrefs(data.html).includes(`/p/towns/record?${view}&offset=0`), "each record links to its own page");

    const record = await page(url, `/p/towns/record?version=1&country__exact=FR&sort_desc=population&offset=2`);
    const third =
      (await apiJson(url, "/projects/towns/data?version=1&country__exact=FR&sort_desc=population&limit=1&offset=2"))
        .records[0];
    assertEquals(tableRows(record.html, "record").map((r) => r[0].replace(/(integer|string|boolean)$/, "")), columns);
    assertEquals(tableRows(record.html, "record").map((r) => r[1]), columns.map((c) => String(third[c])));
    assertMatch(textOf(elementById(record.html, "span", "record-at")!), /^v1 · record 3 of \d+ in this view$/);
  }, { towns: true });
});

Deno.test("pages escape every value of the data; a view's form answers with the view it asks for", async () => {
  await withUiNode(null, async ({ url }) => {
    const hostile = await page(url, "/p/hostile/data?version=1");
    assert(!hostile.html.includes(HOSTILE_VALUE), "the hostile value is never raw");
    // Markup as a parser sees it: attribute values (quoted, escaped) set apart.
    const tags = elementById(hostile.html, "main", "main")!.replace(/"[^"]*"/g, '""');
    assert(
      !/<(img|script|svg|iframe|i)\b|<[a-z]+\b[^>]*\son[a-z]+\s*=/i.test(tags),
      "no element or handler from the data",
    );
    assert(recordCells(hostile.html).flat().includes(HOSTILE_VALUE), "the hostile value is there, as text");
    const towns = await page(url, "/p/towns/record?version=1&offset=7");
    assert(!towns.html.includes(TOWN_HOSTILE) && tableRows(towns.html, "record").flat().includes(TOWN_HOSTILE));
    for (const link of hrefs(towns.html)) assert(!/^\s*javascript:/i.test(link), link);

    // The filter row and the search, sent as the form sends them (no script), are folded into the view's address.
    const form = await page(
      url,
      "/p/towns/data?version=1&q=+town+&_op.population=gte&_value.population=50000&_op.name=&_value.name=",
    );
    assertEquals([form.status, form.headers.get("location")], [
      303,
      "/p/towns/data?version=1&population__gte=50000&q=town",
    ]);
    const size = await page(url, "/p/towns/data?version=1&offset=60&_limit=25");
    assertEquals(size.headers.get("location"), "/p/towns/data?version=1&limit=25&offset=50");
    const jump = await page(url, "/p/towns/data?version=1&_page=3");
    assertEquals(jump.headers.get("location"), "/p/towns/data?version=1&offset=100");

    const missing = await page(url, "/p/nowhere");
    assertEquals([missing.status, textOf(elementById(missing.html, "h1", "error-title")!)], [404, "Not found"]);
    assertMatch(missing.html, /404: project &quot;nowhere&quot; not found on this node/);
    const refused = await page(url, "/p/towns/data?version=1&population__gt=many");
    assertEquals(refused.status, 400);
    assertMatch(textOf(refused.html), /400: .*many/);
  }, { towns: true });
});

/** A project `skewed` of 20,000 records whose `size` has most records near 0 and ten near a million. */
async function skewedProject(root: string): Promise<void> {
  const w = new StoreWriter(root);
  try {
    await w.project("skewed", {
      slug: "skewed",
      title: "Skewed",
      readme: "Most records are small; ten are huge.",
      license: "CC0-1.0",
      schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "size", type: "integer" }], allowExtra: false },
      latestVersion: 1,
    });
    await w.version("skewed", 1, {
      parts: [{
        sql:
          "SELECT i::BIGINT AS id, (CASE WHEN i < 19990 THEN i % 100 ELSE 1000000 + i END)::BIGINT AS size FROM range(20000) r(i)",
      }],
    });
  } finally {
    w.close();
  }
}

Deno.test("the statistics page holds each column's figures, counts with separators, a skewed histogram on a log scale", async () => {
  await withUiNode(null, async ({ url, store }) => {
    await skewedProject(store);
    const st = await page(url, "/p/skewed/statistics");
    assertEquals(st.status, 200);
    assertMatch(textOf(elementById(st.html, "p", "stats-summary")!), /^v1 · 20,000 records · 2 columns\./);
    assertMatch(st.html, /<section class="stat" data-column="size" data-kind="number">/);
    assertMatch(st.html, /<svg class="chart histogram"[^>]*data-scale="log"/);
    assertMatch(st.html, /bar heights on a log scale/);
    assertMatch(textOf(st.html), /Max1,019,999/, "a figure of seven digits with separators");
    const data = await page(url, "/p/skewed/data?version=1");
    assertEquals(textOf(elementById(data.html, "span", "range")!), "v1 · records 1–50 of 20,000");
  }, { towns: true });
});

Deno.test("a column named like a member of Object shows its own value: null when the page leaves it out", async () => {
  await withUiNode(null, async ({ url, store }) => {
    const w = new StoreWriter(store);
    try {
      const fields = ["toString", "constructor", "valueOf"].map((name) => ({ name, type: "string" }));
      await w.project("members", {
        slug: "members",
        title: "Members",
        readme: "Columns named like the members of Object.",
        license: "CC0-1.0",
        schemaDef: { fields: [{ name: "id", type: "integer" }, ...fields], allowExtra: false },
        latestVersion: 1,
      });
      await w.version("members", 1, {
        parts: [{
          sql: "SELECT 1::BIGINT AS id, NULL::VARCHAR AS toString, 'c' AS constructor, NULL::VARCHAR AS valueOf",
        }],
      });
    } finally {
      w.close();
    }
    const data = await page(url, "/p/members/data?version=1");
    assertEquals(recordCells(data.html), [["1", "null", "c", "null"]]);
    const record = await page(url, "/p/members/record?version=1&offset=0");
    assertEquals(tableRows(record.html, "record").map((r) => r.at(-1)), ["1", "null", "c", "null"]);
  });
});

const TOKEN = "node-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function post(url: string, path: string, body: unknown): Promise<Json> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert(res.status === 201, `${path}: ${res.status} ${await res.clone().text()}`);
  return await res.json();
}

Deno.test("the diff page holds what versions added, linked from the project's versions; a node with a token wants it", async () => {
  await withUiNode(TOKEN, async ({ url }) => {
    await post(url, "/projects", {
      slug: "notes",
      title: "Agent notes",
      readme: "Notes an agent keeps while it works.",
      schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }], allowExtra: false },
    });
    for (const [from, n] of [[0, 3], [3, 2], [5, 4]]) {
      const records = Array.from({ length: n }, (_, i) => ({ id: from + i, text: `note <${from + i}>` }));
      await post(url, "/projects/notes/contribute", { records });
    }
    const login = await page(url, "/p/notes");
    assertEquals(login.status, 200);
    assertMatch(login.html, /action="\/ui\/login"/);
    assert(!login.html.includes("Agent notes"), "nothing of the project without the token");

    const project = await page(url, "/p/notes", AUTH);
    const versions = tableRows(project.html, "versions");
    assertEquals(versions.map((r) => [r[0], r[5]]), [["v3", "changes since v2"], ["v2", "changes since v1"], [
      "v1",
      "what v1 holds",
    ]]);
    assert(hrefs(project.html).includes("/p/notes/diff?from=2&to=3"), "the newest version links to its changes");

    const diff = await page(url, "/p/notes/diff?from=1&to=3", AUTH);
    assertEquals(diff.status, 200);
    const api = await apiJson(url, "/projects/notes/diff?from=1&to=3", { headers: AUTH });
    assertEquals(tableRows(diff.html, "diff-records"), api.records.map((r: Json) => [String(r.id), r.text]));
    assertEquals(tableRows(diff.html, "diff-records").length, 6);
    assertEquals(tableRows(diff.html, "fragments").map((r) => [r[0], r[3]]), [["v2", "2"], ["v3", "4"]]);
    assertEquals(
      textOf(elementById(diff.html, "p", "diff-summary")!).trim(),
      "v2 to v3 added 6 records, from 2 contributions.",
    );
    assert(hrefs(diff.html).includes("/p/notes/diff?from=0&to=1"), "a way to the changes before");
    assert(!diff.html.includes("note <"), "record values are escaped");

    const newest = await page(url, "/p/notes/diff", AUTH);
    assertMatch(textOf(elementById(newest.html, "p", "diff-summary")!), /^v3 added 4 records, from 1 contribution\./);
  });
});
