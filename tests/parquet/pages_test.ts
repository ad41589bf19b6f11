import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withTypedNode } from "./_typed_store.ts";

Deno.test("data pages keep exact JSON forms of every column type", async () => {
  await withTypedNode(async (url) => {
    const text = await (await fetch(`${url}/projects/typed/data?limit=10`)).text();
    assertMatch(text, /"big":9007199254740993[,}]/, "a 64-bit integer keeps every digit");
    assertMatch(text, /"small":-9223372036854775808[,}]/);
    assertMatch(text, /"f32":0\.1[,}]/, "a FLOAT prints without noise");
    assertMatch(text, /"f64":0\.30000000000000004[,}]/, "a DOUBLE prints its exact shortest form");
    assertMatch(text, /"dec":12345\.67[,}]/, "decimals are numbers");
    assertMatch(text, /"day":"2026-11-22"/);
    assertMatch(text, /"at":"2026-11-22T03:04:05\.123456"/);
    assertMatch(text, /"blob":"00ff10"/);
    assertMatch(text, /"list":\[1,2,3\]/);
    assertMatch(text, /"obj":\{"a":1,"b":"x"\}/);
    assertMatch(text, /"flag":true/);
    const body: Json = JSON.parse(text);
    assertEquals(body.count, 2);
    assertEquals(body.records[0].s, 'quote " backslash \\ newline \n unicode é😀');
    assertEquals("nan" in body.records[0], true);
    assertEquals(body.records[0].nan, null, "NaN is null");
    assertEquals(Object.keys(body.records[1]).sort(), ["big", "id"], "null columns are left out");
  });
});

Deno.test("fields beyond the schema, kept in _extra, are folded back into the record", async () => {
  await withTypedNode(async (url) => {
    const text = await (await fetch(`${url}/projects/extra/data`)).text();
    assertMatch(text, /\{"id":1,"name":"a","color":"red","huge":123456789012345678901\}/);
    const body: Json = JSON.parse(text);
    assertEquals(body.records[1], { id: 2, name: "b" }, "an empty or null _extra adds nothing");
    assertEquals(body.records[2], { id: 3, name: "c", nested: { k: [1, 2] } });
  });
});

Deno.test("a deep page equals the same slice of the whole version", async () => {
  await withTypedNode(async (url) => {
    const all: Json = await (await fetch(`${url}/projects/many/data?limit=1000`)).json();
    for (const [offset, limit] of [[0, 7], [99, 3], [100, 250], [999, 5], [640, 1000]]) {
      const page: Json = await (await fetch(`${url}/projects/many/data?offset=${offset}&limit=${limit}`)).json();
      assertEquals(page.records, all.records.slice(offset, offset + limit), `${offset}+${limit}`);
    }
  });
});

Deno.test("a part whose records carry their own file_row_number field still pages correctly", async () => {
  await withTypedNode(async (url) => {
    const page: Json = await (await fetch(`${url}/projects/rownum/data?offset=120&limit=3`)).json();
    assertEquals(page.records, [
      { id: 120, file_row_number: 880 },
      { id: 121, file_row_number: 879 },
      { id: 122, file_row_number: 878 },
    ]);
  });
});
