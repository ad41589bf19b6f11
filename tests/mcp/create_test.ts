/**
 * `create_dataset` over MCP: the same project as `POST /projects` makes,
 * then records contributed and read back through the other tools.
 */
import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { mcpClient, textOf } from "./_client.ts";

const PROJECT = {
  title: "Field notes",
  readme: "Observations an agent records while it works.",
  schemaDef: {
    fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }, {
      name: "score",
      type: "number",
      required: false,
    }],
  },
  tags: ["notes", "agents"],
  visibility: "public",
};

Deno.test("MCP create_dataset makes the project POST /projects makes; records contributed read back", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const made: Json = await client.callTool({ name: "create_dataset", arguments: { slug: "notes", ...PROJECT } });
      assertEquals(made.isError, undefined, textOf(made));
      assertEquals(made.structuredContent, { id: null, slug: "notes", visibility: "public", local: true });
      const http = await fetch(`${url}/projects`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ slug: "notes-http", ...PROJECT }),
      });
      assertEquals(http.status, 201);
      assertEquals(await http.json(), { id: null, slug: "notes-http", visibility: "public", local: true });
      const viaMcp: Json = await (await fetch(`${url}/projects/notes`)).json();
      const viaHttp: Json = await (await fetch(`${url}/projects/notes-http`)).json();
      const strip = ({ slug: _s, createdAt: _c, ...rest }: Json) => rest;
      assertEquals(strip(viaMcp), strip(viaHttp), "the same project, whichever way it was made");
      assertEquals(viaMcp.license, "platform-standard");
      const info: Json = await client.callTool({ name: "dataset_info", arguments: { slug: "notes" } });
      assertEquals(info.structuredContent, viaMcp);

      const records = [{ id: 1, text: "first" }, { id: 2, text: "second", score: 0.5 }];
      const c: Json = await client.callTool({ name: "contribute_records", arguments: { slug: "notes", records } });
      assertEquals([c.structuredContent.status, c.structuredContent.mergedVersion], ["merged", 1]);
      const page: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "notes" } });
      assertEquals(page.structuredContent.records.map((r: Json) => [r.id, r.text]), [[1, "first"], [2, "second"]]);
      const q: Json = await client.callTool({
        name: "query_dataset",
        arguments: { slug: "notes", sql: "SELECT sum(score) AS s FROM records" },
      });
      assertEquals(q.structuredContent.rows, [[0.5]]);
      const list: Json = await client.callTool({ name: "list_datasets", arguments: { query: "field" } });
      assertEquals(list.structuredContent.projects.map((p: Json) => p.slug).sort(), ["notes", "notes-http"]);
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP create_dataset: the route's refusals are tool errors, and a taken slug changes nothing", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ slug: "cities", ...PROJECT }, /^409: project cities already exists on this node$/],
        [{ slug: "No Caps", ...PROJECT }, /^400: body\/slug must match pattern/],
        [{ slug: "notes", ...PROJECT, title: "abc" }, /^400: body\/title must be a string of 4-140 characters$/],
        [{ slug: "notes", ...PROJECT, readme: "too short" }, /^400: body\/readme must be a string of 20-20000/],
        [{ slug: "notes", ...PROJECT, tags: ["UPPER"] }, /^400: body\/tags must be up to 8 tags/],
        [
          {
            slug: "notes",
            ...PROJECT,
            schemaDef: { fields: [{ name: "a", type: "string" }, { name: "a", type: "string" }] },
          },
          /^400: body\/schemaDef\/fields: "a" is named twice$/,
        ],
      ];
      for (const [args, message] of cases) {
        const r: Json = await client.callTool({ name: "create_dataset", arguments: args });
        assertEquals(r.isError, true, String(args.slug));
        assertMatch(textOf(r), message);
      }
      const cities: Json = await (await fetch(`${url}/projects/cities`)).json();
      assertEquals(cities.title, "World cities", "the taken slug's project is untouched");
      const notes = await fetch(`${url}/projects/notes`);
      await notes.body?.cancel();
      assertEquals(notes.status, 404, "nothing was made by a refused call");
    } finally {
      await client.close();
    }
  });
});
