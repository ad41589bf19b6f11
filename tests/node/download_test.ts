/**
 * Downloads over HTTP (issue 29): `format=` or `Accept` on a data page or a
 * SQL query answers a file of the view or the answer, in CSV, JSON, JSON
 * lines or Parquet, equal to the JSON the API gives for the same request;
 * browsers and JSON clients still get the JSON page; a client that goes
 * away lets go of the version; temporary Parquet files never stay.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { downloadFolders, parseCsv, readParquet } from "../support/downloads.ts";
import { withNode } from "../support/node.ts";
import { citySql, StoreWriter } from "../support/store_fixture.ts";
import { pruneLocked } from "../../src/store/mod.ts";

const VIEWS = ["", "note__notnull=1&id__lt=100&sort_desc=score", "q=city-5&sort=name&facet=note"];
const CITY_COLUMNS = ["id", "name", "population", "score", "note"];
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

async function folders(): Promise<string[]> {
  return [...await downloadFolders()];
}

async function records(url: string, query: string): Promise<Json[]> {
  const res = await fetch(`${url}/projects/cities/data?${query}&limit=1000`);
  assertEquals(res.status, 200);
  return (await res.json()).records;
}

function cell(value: Json): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

Deno.test("downloads of a view: CSV, JSON, JSON lines and Parquet hold the data page's records, in its order", async () => {
  await withNode({}, async ({ url }) => {
    const before = await folders();
    for (const query of VIEWS) {
      const expected = await records(url, query);
      const name = query === "" ? "cities-v2" : "cities-v2-view";
      const get = (format: string) => fetch(`${url}/projects/cities/data?${query}&format=${format}`);

      const csv = await get("csv");
      assertEquals(csv.headers.get("content-type"), "text/csv; charset=utf-8");
      assertEquals(csv.headers.get("content-disposition"), `attachment; filename="${name}.csv"`);
      assertEquals([csv.headers.get("cache-control"), csv.headers.get("x-svc-node")], ["no-store", "1"]);
      const rows = parseCsv(await csv.text());
      assertEquals(rows, [CITY_COLUMNS, ...expected.map((r) => CITY_COLUMNS.map((k) => cell(r[k])))], query);

      const json = await get("json");
      assertEquals(json.headers.get("content-type"), "application/json; charset=utf-8");
      assertEquals(json.headers.get("content-disposition"), `attachment; filename="${name}.json"`);
      assertEquals(await json.json(), expected, query);

      const jsonl = await get("jsonl");
      assertEquals(jsonl.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
      const lines = (await jsonl.text()).split("\n");
      assertEquals(lines.pop(), "", "every line ends with a newline");
      assertEquals(lines.map((l) => JSON.parse(l)), expected, query);

      const parquet = await get("parquet");
      assertEquals(parquet.headers.get("content-type"), "application/vnd.apache.parquet");
      assertEquals(parquet.headers.get("content-disposition"), `attachment; filename="${name}.parquet"`);
      const bytes = new Uint8Array(await parquet.arrayBuffer());
      assertEquals(parquet.headers.get("content-length"), String(bytes.length));
      const back = await readParquet(bytes);
      assertEquals(back.records.map((r) => JSON.parse(r)), expected, query);
      assertEquals(back.types.map(([n]) => n), CITY_COLUMNS);
    }
    assertEquals((await folders()).filter((n) => !before.includes(n)), [], "no temporary Parquet file stays");
  });
});

Deno.test("downloads of a view: the whole view past a page's 1,000 records, or the slice limit and offset name", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("big", 1, { parts: [{ sql: citySql(0, 1500) }, { sql: citySql(1500, 1000) }] });
    w.close();
    const lines = async (query: string) => {
      const res = await fetch(`${url}/projects/big/data?${query}`);
      assertEquals(res.status, 200, query);
      return (await res.text()).trimEnd().split("\n").map((l) => JSON.parse(l).id as number);
    };
    assertEquals(await lines("format=jsonl"), Array.from({ length: 2500 }, (_, i) => i));
    const sorted = await lines("format=jsonl&sort_desc=id&id__gte=100");
    assertEquals(sorted, Array.from({ length: 2400 }, (_, i) => 2499 - i));
    assertEquals(await lines("format=jsonl&sort_desc=id&limit=3&offset=5"), [2494, 2493, 2492]);
    assertEquals(await lines("format=jsonl&offset=2497"), [2497, 2498, 2499]);
    const page = await (await fetch(`${url}/projects/big/data?name__startswith=city-1&limit=7&offset=20`)).json();
    assertEquals(
      await lines("format=jsonl&name__startswith=city-1&limit=7&offset=20"),
      page.records.map((r: Json) => r.id),
    );
    const slice = await fetch(`${url}/projects/big/data?format=csv&limit=2`);
    assertEquals(slice.headers.get("content-disposition"), 'attachment; filename="big-v1-view.csv"');
    assertEquals((await slice.text()).split("\r\n").length, 4, "header, two records, last line end");
    const v1 = await fetch(`${url}/projects/cities/data?version=1&format=csv`);
    assertEquals(v1.headers.get("content-disposition"), 'attachment; filename="cities-v1.csv"');
    assertEquals((await v1.text()).split("\r\n").length, 252);
  });
});

Deno.test("downloads: Accept picks a format; application/json, a browser's Accept or none keep the JSON page", async () => {
  await withNode({}, async ({ url }) => {
    const path = `${url}/projects/cities/data?id__lt=3`;
    const page = await (await fetch(path)).text();
    for (const accept of ["application/json", BROWSER, "*/*", "text/csv;q=0.5, application/json", "text/plain"]) {
      const res = await fetch(path, { headers: { accept } });
      assertEquals(res.headers.get("content-type"), "application/json; charset=utf-8", accept);
      assertEquals(res.headers.get("content-disposition"), null, accept);
      assertEquals(await res.text(), page, accept);
    }
    const cases: [string, string][] = [
      ["text/csv", "text/csv; charset=utf-8"],
      ["application/json;q=0.5, text/csv", "text/csv; charset=utf-8"],
      ["application/x-ndjson", "application/x-ndjson; charset=utf-8"],
      ["application/jsonl", "application/x-ndjson; charset=utf-8"],
      ["application/vnd.apache.parquet", "application/vnd.apache.parquet"],
    ];
    for (const [accept, type] of cases) {
      const res = await fetch(path, { headers: { accept } });
      assertEquals([res.status, res.headers.get("content-type")], [200, type], accept);
      await res.body?.cancel();
    }
    const named = await fetch(`${path}&format=json`, { headers: { accept: "text/csv" } });
    assertEquals(named.headers.get("content-disposition"), 'attachment; filename="cities-v2-view.json"');
    assertEquals((await named.json()).map((r: Json) => r.id), [0, 1, 2], "format= wins over Accept");
  });
});

Deno.test("downloads: a bad format, column or value is 400 with the JSON error; HEAD checks and sends no body", async () => {
  await withNode({}, async ({ url }) => {
    const refused: [string, RegExp][] = [
      ["format=xml", /format must be one of csv, json, jsonl, parquet/],
      ["format=", /format must be one of/],
      ["format=CSV", /format must be one of/],
      ["format=csv&nope__exact=1", /no column "nope"/],
      ["format=parquet&id__exact=abc", /not of its column's type/],
      ["format=csv&id__gt=x", /not of its column's type/],
      ["format=jsonl&limit=0", /limit must be >= 1/],
      ["format=json&version=9", /version 9 is not on this node/],
    ];
    for (const [query, message] of refused) {
      const res = await fetch(`${url}/projects/cities/data?${query}`);
      assert(res.status === 400 || res.status === 404, `${query}: ${res.status}`);
      assertEquals(res.headers.get("content-type"), "application/json; charset=utf-8", query);
      assertMatch((await res.json()).error, message);
    }
    const head = await fetch(`${url}/projects/cities/data?format=csv&sort=name`, { method: "HEAD" });
    assertEquals([head.status, head.headers.get("content-type")], [200, "text/csv; charset=utf-8"]);
    assertEquals(head.headers.get("content-disposition"), 'attachment; filename="cities-v2-view.csv"');
    assertEquals(await head.text(), "");
    const parquetHead = await fetch(`${url}/projects/cities/data?format=parquet`, { method: "HEAD" });
    assertEquals([parquetHead.status, parquetHead.headers.get("content-length")], [200, null]);
    await parquetHead.body?.cancel();
    const badHead = await fetch(`${url}/projects/cities/data?format=parquet&id__exact=abc`, { method: "HEAD" });
    assertEquals(badHead.status, 400);
    await badHead.body?.cancel();
  });
});

Deno.test("downloads: with a node token a download needs it", async () => {
  await withNode({ token: "s3cret-token" }, async ({ url }) => {
    for (const format of ["csv", "parquet"]) {
      const bare = await fetch(`${url}/projects/cities/data?format=${format}`);
      assertEquals(bare.status, 401);
      await bare.body?.cancel();
      const query = await fetch(`${url}/projects/cities/query?format=${format}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: "SELECT 1" }),
      });
      assertEquals(query.status, 401);
      await query.body?.cancel();
      const authed = await fetch(`${url}/projects/cities/data?format=${format}`, {
        headers: { authorization: "Bearer s3cret-token" },
      });
      assertEquals(authed.status, 200);
      await authed.arrayBuffer();
    }
  });
});

Deno.test("downloads: hostile text and integers beyond 2^53 come back exact through CSV and JSON", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("hostile", 1, {
      parts: [{
        sql: `SELECT * FROM (VALUES (1, 'a,b "c"' || chr(13) || chr(10) || 'd', 9007199254740993::BIGINT),
          (2, '=HYPERLINK("http://x")', -9223372036854775807::BIGINT), (3, ' é😀 ', NULL), (4, '', 0),
          (5, NULL, 1)) t(id, s, big)`,
      }],
    });
    w.close();
    const page = await (await fetch(`${url}/projects/hostile/data`)).text();
    const exact = (text: string) => JSON.parse(text.replace(/(-?\d{16,})/g, '"$1"'));
    const expected = exact(page).records as Json[];
    const csv = parseCsv(await (await fetch(`${url}/projects/hostile/data?format=csv`)).text());
    assertEquals(csv, [["id", "s", "big"], ...expected.map((r) => [String(r.id), r.s ?? null, cell(r.big)])]);
    assertEquals(csv[1], ["1", 'a,b "c"\r\nd', "9007199254740993"]);
    assertEquals(csv[2], ["2", '=HYPERLINK("http://x")', "-9223372036854775807"]);
    const json = await (await fetch(`${url}/projects/hostile/data?format=json`)).text();
    assert(json.includes('"big":9007199254740993'), "digits, not a rounded number or a string");
    assertEquals(exact(json), expected);
  });
});

Deno.test("downloads: dates and times (written by JavaScript, not DuckDB) end in every text format", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("dated", 1, {
      parts: [{
        sql: `SELECT i::BIGINT AS id, DATE '2024-01-01' + i::INTEGER AS day, TIMESTAMP '2024-01-01 00:00:00' + ` +
          `to_minutes(i) AS at FROM range(3000) r(i)`,
        rowGroupSize: 1000,
      }],
    });
    w.close();
    // The body's last read is empty for CSV and JSON lines (no closing bracket): it used to stall the relay.
    for (const [format, lines] of [["csv", 3001], ["jsonl", 3000], ["json", 3002]] as const) {
      for (const query of ["", "&id__gte=10", "&limit=5"]) {
        const res = await fetch(`${url}/projects/dated/data?format=${format}${query}`, {
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        assertEquals(res.status, 200, text);
        const expected = query === "" ? lines : query === "&limit=5" ? lines - 2995 : lines - 10;
        assertEquals(text.trimEnd().split("\n").length, expected, `${format}${query}`);
      }
    }
    const last = (await (await fetch(`${url}/projects/dated/data?format=jsonl`)).text()).trimEnd().split("\n").pop();
    assertEquals(JSON.parse(last!), { id: 2999, day: "2032-03-18", at: "2024-01-03T01:59:00" });
  });
});

Deno.test("downloads: a client that goes away lets go of the version (a prune can then remove its parts)", async () => {
  await withNode({ exportCache: 0 }, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("large", 1, { parts: [{ sql: citySql(0, 300_000) }] });
    await w.version("large", 2, { parts: [{ sql: citySql(0, 10) }] });
    w.close();
    const before = await folders();
    for (const format of ["parquet", "csv", "jsonl"]) {
      const res = await fetch(`${url}/projects/large/data?version=1&format=${format}&sort_desc=id`);
      assertEquals(res.status, 200);
      const reader = res.body!.getReader();
      assert(!(await reader.read()).done);
      if (format === "jsonl") {
        const held = await pruneLocked(store, "large", 1);
        assertEquals([held.versions, held.busy], [[1], 1], "the part being read stays");
      }
      await reader.cancel();
    }
    // Gone before the answer starts: the Parquet file is being written when the connection closes.
    const early = new AbortController();
    const cut = fetch(`${url}/projects/large/data?version=1&format=parquet&sort=name`, { signal: early.signal })
      .then((res) => res.body?.cancel(), () => {});
    await new Promise((r) => setTimeout(r, 30));
    early.abort();
    await cut;
    let freed = { parts: 0, busy: 1 };
    for (let i = 0; i < 50 && freed.busy > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      freed = await pruneLocked(store, "large", 1);
    }
    assertEquals([freed.busy, freed.parts], [0, 1], "once the downloads are cancelled, the next prune takes the part");
    assertEquals((await folders()).filter((n) => !before.includes(n)), [], "no temporary Parquet file stays");
    const again = await fetch(`${url}/projects/large/data?format=csv`);
    assertEquals((await again.text()).split("\r\n").length, 12, "the node still answers");
  });
});

Deno.test("downloads: more Parquet downloads than may be written at once wait for their turn", async () => {
  await withNode({}, async ({ url }) => {
    const path = `${url}/projects/cities/data?format=parquet&sort_desc=score`;
    const all = await Promise.all(Array.from({ length: 5 }, () => fetch(path)));
    const files = await Promise.all(all.map(async (res) => new Uint8Array(await res.arrayBuffer())));
    assertEquals(all.map((r) => r.status), [200, 200, 200, 200, 200]);
    const ids = (await readParquet(files[4])).records.map((r) => JSON.parse(r).id);
    assertEquals([ids.length, ids[0], ids[599]], [600, 599, 0]);
    assert(files.every((f) => f.length === files[0].length), "the same file each time");
  });
});

async function query(url: string, body: Json, format: string | null, accept?: string): Promise<Response> {
  const suffix = format === null ? "" : `?format=${format}`;
  return await fetch(`${url}/projects/cities/query${suffix}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
    body: JSON.stringify(body),
  });
}

Deno.test("downloads of a SQL answer: each format holds the answer's rows; truncation is said in a header", async () => {
  await withNode({}, async ({ url }) => {
    const body = { sql: "SELECT id, name, note FROM records WHERE id < 10 ORDER BY id DESC", limit: 4 };
    const answer = await (await query(url, body, null)).json();
    assertEquals([answer.count, answer.truncated], [4, true]);
    const objects = answer.rows.map((row: Json[]) =>
      Object.fromEntries(answer.columns.map((c: string, i: number) => [c, row[i]]))
    );

    const csv = await query(url, body, "csv");
    assertEquals(csv.headers.get("content-disposition"), 'attachment; filename="cities-v2-query.csv"');
    assertEquals([csv.headers.get("x-svc-truncated"), csv.headers.get("cache-control")], ["true", "no-store"]);
    assertEquals(parseCsv(await csv.text()), [answer.columns, ...answer.rows.map((r: Json[]) => r.map(cell))]);
    assertEquals(await (await query(url, body, "json")).json(), objects);
    const lines = (await (await query(url, body, "jsonl")).text()).trimEnd().split("\n");
    assertEquals(lines.map((l) => JSON.parse(l)), objects);
    const parquet = await query(url, body, "parquet");
    const back = await readParquet(new Uint8Array(await parquet.arrayBuffer()));
    assertEquals(back.types, [["id", "BIGINT"], ["name", "VARCHAR"], ["note", "VARCHAR"]]);
    const withoutNulls = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
    assertEquals(back.records.map((r) => JSON.parse(r)), objects.map(withoutNulls), "Parquet records leave nulls out");

    const negotiated = await query(url, { sql: "SELECT 1 AS one" }, null, "text/csv");
    assertEquals([negotiated.headers.get("content-type"), negotiated.headers.get("x-svc-truncated")], [
      "text/csv; charset=utf-8",
      "false",
    ]);
    assertEquals(await negotiated.text(), "one\r\n1\r\n");
    const page = await query(url, { sql: "SELECT 1 AS one" }, null, BROWSER);
    assertEquals((await page.json()).rows, [[1]], "a browser's Accept keeps the JSON answer");
  });
});

Deno.test("downloads of a SQL answer: exact big numbers and hostile text; errors stay JSON", async () => {
  await withNode({}, async ({ url }) => {
    const sql = `SELECT 9007199254740993::BIGINT AS big, 12345678901234567890.123456789::DECIMAL(38,9) AS d, ` +
      `'=1+2,"x"' || chr(10) || 'y' AS s, [1, 2] AS l, {'k': 'v'} AS o, '\\x00\\xFF'::BLOB AS b, 1 AS big`;
    const csv = parseCsv(await (await query(url, { sql }, "csv")).text());
    assertEquals(csv, [
      ["big", "d", "s", "l", "o", "b", "big_2"],
      ["9007199254740993", "12345678901234567890.123456789", '=1+2,"x"\ny', "[1,2]", '{"k":"v"}', "00ff", "1"],
    ]);
    const json = await (await query(url, { sql }, "json")).text();
    assert(json.includes('"big":"9007199254740993","d":12345678901234567890.123456789'), json);
    const back = await readParquet(new Uint8Array(await (await query(url, { sql }, "parquet")).arrayBuffer()));
    assertEquals(back.records, [
      '{"big":9007199254740993,"d":12345678901234567890.123456789,"s":"=1+2,\\"x\\"\\ny","l":[1,2],' +
      '"o":"{\\"k\\":\\"v\\"}","b":"00ff","big_2":1}',
    ]);
    for (
      const [body, format, status, message] of [
        [{ sql }, "xml", 400, /format must be one of/],
        [{ sql: "DROP TABLE records" }, "csv", 400, /read-only/],
        [{ sql: "SELECT * FROM nope" }, "parquet", 400, /table nope does not exist/],
      ] as const
    ) {
      const res = await query(url, body, format);
      assertEquals([res.status, res.headers.get("content-type")], [status, "application/json; charset=utf-8"]);
      assertMatch((await res.json()).error, message);
    }
  });
});

Deno.test("downloads: Parquet of a version with no parts is 422 to GET and HEAD alike", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    await w.version("noparts", 1, { parts: [] });
    w.close();
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(`${url}/projects/noparts/data?format=parquet`, { method });
      const body = await res.text();
      assertEquals(res.status, 422, `${method}: ${body}`);
      if (method === "GET") assertMatch(JSON.parse(body).error, /holds no records to write as Parquet/);
    }
  });
});
