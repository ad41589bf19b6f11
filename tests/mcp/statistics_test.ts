/**
 * `dataset_statistics` through the official MCP SDK client: the same answer
 * as `GET /projects/{slug}/statistics`, a version asked for, errors as tool
 * errors, strict arguments, and listed on a read-only node.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { mcpClient, textOf } from "./_client.ts";

Deno.test("MCP dataset_statistics: the route's answer, for the newest version or the one asked for", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const listed = (tools as Json[]).find((t) => t.name === "dataset_statistics");
      assertEquals(listed.annotations.readOnlyHint, true);
      assertEquals(Object.keys(listed.inputSchema.properties), ["slug", "version"]);
      assertEquals(listed.inputSchema.required, ["slug"]);
      assertMatch(listed.description, /"slug": "cities"/);

      const newest: Json = await client.callTool({ name: "dataset_statistics", arguments: { slug: "cities" } });
      const http = await (await fetch(`${url}/projects/cities/statistics`)).text();
      assertEquals(textOf(newest), http, "the route's JSON text");
      assertEquals(newest.structuredContent, JSON.parse(http));
      assertEquals([newest.structuredContent.version, newest.structuredContent.records], [2, 600]);

      const v1: Json = await client.callTool({ name: "dataset_statistics", arguments: { slug: "cities", version: 1 } });
      assertEquals([v1.structuredContent.version, v1.structuredContent.records], [1, 250]);

      const missing: Json = await client.callTool({
        name: "dataset_statistics",
        arguments: { slug: "cities", version: 9 },
      });
      assertEquals(missing.isError, true);
      assertEquals(textOf(missing), "404: version 9 is not on this node (newest 2, 2 versions held)");
      await assertRejects(
        () => client.callTool({ name: "dataset_statistics", arguments: { slug: "cities", columns: ["id"] } }),
        /-32602/,
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP dataset_statistics: listed and answered on a read-only node", async () => {
  await withNode({ readOnly: true }, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const names = (await client.listTools()).tools.map((t: Json) => t.name);
      assert(names.includes("dataset_statistics"), names.join());
      const answer: Json = await client.callTool({ name: "dataset_statistics", arguments: { slug: "bare" } });
      assertEquals([answer.structuredContent.records, answer.structuredContent.columns.length], [10, 2]);
    } finally {
      await client.close();
    }
  });
});
