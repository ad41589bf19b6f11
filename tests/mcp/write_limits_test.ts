/**
 * MCP writes are held to the limits HTTP writes are, through the official
 * SDK client against a node over sockets: records nested past 200 levels
 * (as HTTP counts them in the body), 1,000, 3,000 and 5,000 deep, are
 * refused as the same 400 a `POST .../contribute` gets, records at the
 * limit merge both ways, a batch over 512 KiB is the same 413, and no
 * refusal costs the node an internal error.
 */
import { assert, assertEquals, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { mcpClient, textOf } from "./_client.ts";

const PROJECT = {
  slug: "deep",
  title: "Deep notes",
  readme: "Records with an extra field nested as deep as a test likes.",
  schemaDef: { fields: [{ name: "id", type: "integer" }], allowExtra: true },
};

/**
 * A record whose innermost value sits `depth` levels down in the HTTP body
 * `{"records": [record]}` (the body at 0, `records` at 1, the record at 2).
 */
function recordAt(depth: number, id: number): Json {
  let inner: Json = { leaf: id };
  for (let level = depth - 1; level > 3; level--) inner = { a: inner };
  return { id, nested: inner };
}

Deno.test("contribute_records over MCP answers nesting and size as POST .../contribute does", async () => {
  await withNode({}, async ({ url, log }) => {
    const made = await fetch(`${url}/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(PROJECT),
    });
    assertEquals(made.status, 201, await made.text());
    const client = await mcpClient(url);
    try {
      let id = 0;
      for (const depth of [200, 201, 1_000, 3_000, 5_000]) {
        const http = await fetch(`${url}/projects/deep/contribute`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ records: [recordAt(depth, ++id)] }),
        });
        const httpBody = await http.json();
        const mcp: Json = await client.callTool({
          name: "contribute_records",
          arguments: { slug: "deep", records: [recordAt(depth, ++id)] },
        });
        if (depth <= 200) {
          assertEquals(http.status, 201, `${depth}: ${JSON.stringify(httpBody)}`);
          assertEquals(mcp.isError, undefined, `${depth}: ${textOf(mcp)}`);
          assertEquals(mcp.structuredContent.status, "merged");
        } else {
          assertEquals(http.status, 400, String(depth));
          assertEquals(httpBody.error, "body nests JSON deeper than 200 levels, the limit");
          assertEquals(mcp.isError, true, String(depth));
          assertEquals(textOf(mcp), `400: ${httpBody.error}`, String(depth));
        }
      }
      // 600 KiB of records: over the batch's 512 KiB both ways, under the 1 MiB body
      const big = Array.from({ length: 6 }, (_, i) => ({ id: 100 + i, text: "x".repeat(100 * 1024) }));
      const http = await fetch(`${url}/projects/deep/contribute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ records: big }),
      });
      const httpBody = await http.json();
      assertEquals(http.status, 413);
      const mcp: Json = await client.callTool({
        name: "contribute_records",
        arguments: { slug: "deep", records: big },
      });
      assertEquals([mcp.isError, textOf(mcp)], [true, `413: ${httpBody.error}`]);
      const manifest: Json = await (await fetch(`${url}/projects/deep/manifest`)).json();
      assertEquals(manifest.version, 2, "the two records at the limit merged; nothing refused did");
    } finally {
      await client.close();
    }
    assert(!log.some((line) => /internal error|RangeError/.test(line)), log.join("\n"));
  });
});
