/**
 * `read_dataset`'s view arguments through the official MCP SDK client:
 * filters, search, sort and facets give the data page's own answer for the
 * same view; operands that do not fit their op, and hostile names and
 * values, are tool errors or plain values, never SQL.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { mcpClient, textOf } from "./_client.ts";

Deno.test("MCP read_dataset: filters, search, sort and facets answer as GET /data does for the same view", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const cases: [Json, string][] = [
        [
          { filters: [{ column: "id", op: "lt", value: 5 }], sort: { column: "score", descending: true } },
          "id__lt=5&sort_desc=score",
        ],
        [{ filters: [{ column: "id", op: "in", values: [7, "3", 500] }] }, "id__in=7,3,500"],
        [
          { filters: [{ column: "note", op: "isnull" }, { column: "id", op: "lte", value: 9 }] },
          "note__isnull=1&id__lte=9",
        ],
        [{ search: "CITY-59", limit: 3, offset: 2 }, "q=CITY-59&limit=3&offset=2"],
        [{ sort: { column: "note" }, facets: ["note"], limit: 4 }, "sort=note&facet=note&limit=4"],
        [{ facets: ["id"], limit: 1 }, "facet=id&limit=1"],
        [{ filters: [{ column: "name", op: "eq", value: "x' OR '1'='1" }] }, "name__exact=x'+OR+'1'%3D'1"],
      ];
      for (const [view, query] of cases) {
        const got: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "cities", ...view } });
        assert(!got.isError, `${query}: ${textOf(got)}`);
        const limit = view.limit ? "" : "&limit=50";
        const http = await (await fetch(`${url}/projects/cities/data?${query}${limit}`)).json();
        assertEquals(got.structuredContent, http, query);
      }
      const plain: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "cities", limit: 2 } });
      assertEquals([plain.structuredContent.count, "facets" in plain.structuredContent], [2, false]);
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP read_dataset: a filter without its operand, an unknown column or a value not of its type is a tool error", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const refused: [Json, RegExp][] = [
        [{ filters: [{ column: "id", op: "eq" }] }, /filters\/0: eq takes `value`/],
        [{ filters: [{ column: "id", op: "in", value: 3 }] }, /in takes `values`/],
        [{ filters: [{ column: "note", op: "isnull", value: 1 }] }, /isnull takes no value/],
        [{ filters: [{ column: 'id" OR 1=1 --', op: "eq", value: 1 }] }, /no column/],
        [{ filters: [{ column: "id", op: "eq", value: "1; DROP TABLE records" }] }, /not of its column's type/],
        [{ sort: { column: "_extra" } }, /no column/],
        [{ facets: ["nope"] }, /no column "nope" to facet by/],
        [{ filters: [{ column: "id", op: "like", value: 1 }] }, /op/],
        [{ facets: ["a", "b", "c", "d", "e", "f"] }, /facets/],
      ];
      for (const [view, message] of refused) {
        const got: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "cities", ...view } })
          .catch((e: Error) => ({ isError: true, content: [{ type: "text", text: e.message }] }));
        assertEquals(got.isError, true, JSON.stringify(view));
        assertMatch(textOf(got), message, JSON.stringify(view));
      }
    } finally {
      await client.close();
    }
  });
});
