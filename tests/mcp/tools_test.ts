import { assert, assertEquals, assertMatch, assertRejects, type Json } from "../support/assert.ts";
import { toolOperations } from "../../src/catalog/mod.ts";
import { withNode } from "../support/node.ts";
import { rawRequest } from "../support/raw_http.ts";
import { mcpClient, textOf } from "./_client.ts";

const NOTES = {
  slug: "notes",
  title: "Agent notes",
  readme: "Notes an agent keeps while it works.",
  schemaDef: { fields: [{ name: "id", type: "integer" }, { name: "text", type: "string" }] },
};

Deno.test("MCP: the SDK client lists the catalog's tools (the reference's nine among them) with schemas and annotations, and calls every one", async () => {
  await withNode({}, async ({ url }) => {
    await fetch(`${url}/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(NOTES),
    })
      .then((r) => r.body?.cancel());
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const listed = tools.map((t: Json) => t.name).sort();
      assertEquals(listed, toolOperations().map((o) => o.tool.name).sort(), "the catalog's tools");
      for (
        const name of [
          "contribute_records",
          "contribution_status",
          "create_dataset",
          "dataset_info",
          "dataset_manifest",
          "dataset_statistics",
          "list_datasets",
          "query_dataset",
          "read_dataset",
        ]
      ) assert(listed.includes(name), `the reference's ${name} is listed`);
      for (const tool of tools as Json[]) {
        assert(tool.description.length > 20, tool.name);
        assertEquals(tool.inputSchema.type, "object");
      }
      const byName = Object.fromEntries((tools as Json[]).map((t) => [t.name, t]));
      assertEquals(byName.read_dataset.annotations.readOnlyHint, true);
      assertEquals(byName.contribute_records.annotations.readOnlyHint, false);
      assertEquals(byName.read_dataset.inputSchema.properties.limit.maximum, 200);
      assert(byName.query_dataset.inputSchema.required.includes("sql"));

      const list: Json = await client.callTool({ name: "list_datasets", arguments: { query: "CIT" } });
      assertEquals(list.structuredContent.projects.map((p: Json) => p.slug), ["cities"]);
      assertEquals(JSON.parse(textOf(list)), list.structuredContent);

      const info: Json = await client.callTool({ name: "dataset_info", arguments: { slug: "cities" } });
      const http: Json = await (await fetch(`${url}/projects/cities`)).json();
      assertEquals(info.structuredContent, http, "the same answer as the HTTP route");

      const page: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "cities", offset: 590 } });
      assertEquals([page.structuredContent.count, page.structuredContent.records[0].id], [10, 590]);
      const defaults: Json = await client.callTool({ name: "read_dataset", arguments: { slug: "cities" } });
      assertEquals(defaults.structuredContent.count, 50, "default page of 50");

      const manifest: Json = await client.callTool({
        name: "dataset_manifest",
        arguments: { slug: "cities", version: 1 },
      });
      assertMatch(manifest.structuredContent.parts[0].url, new RegExp(`^${url}/parts/cities/[0-9a-f]{64}\\.parquet$`));

      const q: Json = await client.callTool({
        name: "query_dataset",
        arguments: { slug: "cities", sql: "SELECT count(*) AS n FROM records", version: 1 },
      });
      assertEquals([q.structuredContent.rows, q.structuredContent.version], [[[250]], 1]);

      const c: Json = await client.callTool({
        name: "contribute_records",
        arguments: { slug: "notes", records: [{ id: 1, text: "hi" }], idempotencyKey: "mcp-1" },
      });
      assertEquals([c.structuredContent.status, c.structuredContent.mergedVersion, c.structuredContent.replayed], [
        "merged",
        1,
        false,
      ]);
      const again: Json = await client.callTool({
        name: "contribute_records",
        arguments: { slug: "notes", records: [{ id: 1, text: "hi" }], idempotencyKey: "mcp-1" },
      });
      assertEquals([again.structuredContent.id, again.structuredContent.replayed], [c.structuredContent.id, true]);
      const rejected: Json = await client.callTool({
        name: "contribute_records",
        arguments: { slug: "notes", records: [{ id: 2, text: "rrn 900101-1234567" }] },
      });
      assertEquals(rejected.isError, undefined, "a gate's rejection is an answer, not an error");
      assertEquals(rejected.structuredContent.verdict.gate, "pii");

      const status: Json = await client.callTool({
        name: "contribution_status",
        arguments: { slug: "notes", id: c.structuredContent.id },
      });
      assertEquals(status.structuredContent.status, "merged");
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP: node errors are tool errors with the HTTP status and message", async () => {
  await withNode({ sql: { timeoutMs: 1000 } }, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          "dataset_info",
          { slug: "../etc" },
          /^404: "\.\.\/etc" is not a project slug: a slug is 3 to 60 lowercase letters/,
        ],
        [
          "read_dataset",
          { slug: "cities", version: 9 },
          /^404: version 9 is not on this node \(newest 2, 2 versions held\)$/,
        ],
        ["query_dataset", { slug: "cities", sql: "DROP VIEW records" }, /^400: queries are read-only/],
        [
          "query_dataset",
          { slug: "cities", sql: "SELECT * FROM nope" },
          /^400: table nope does not exist: the version's records/,
        ],
        [
          "query_dataset",
          { slug: "cities", sql: "SELECT count(*) FROM range(1000000000000)" },
          /^408: the query ran longer/,
        ],
        ["contribute_records", { slug: "cities", records: [{ id: 1 }] }, /^405: project cities is a copy/],
        ["contribution_status", { slug: "cities", id: "nope" }, /^400: a contribution id is a UUID$/],
        [
          "contribution_status",
          { slug: "cities", id: crypto.randomUUID() },
          /^404: contribution .* is not on this node$/,
        ],
      ];
      for (const [name, args, message] of cases) {
        const r: Json = await client.callTool({ name, arguments: args });
        assertEquals(r.isError, true, name);
        assertMatch(textOf(r), message);
      }
      await assertRejects(
        () => client.callTool({ name: "read_dataset", arguments: { slug: "cities", limit: 201 } }),
        /-32602: read_dataset: argument limit must be at most 200$/,
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP on a read-only node: the write tools are absent and calling them is an unknown tool", async () => {
  await withNode({ readOnly: true }, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const readSide = toolOperations().filter((o) => !o.write && !o.tool.writeSide).map((o) => o.tool.name);
      assertEquals(tools.map((t: Json) => t.name), readSide);
      const reference = [
        "list_datasets",
        "dataset_info",
        "read_dataset",
        "dataset_manifest",
        "query_dataset",
        "dataset_statistics",
      ];
      assertEquals(readSide.filter((n) => reference.includes(n)), reference);
      for (const name of ["create_dataset", "contribute_records", "contribution_status"]) {
        await assertRejects(
          () => client.callTool({ name, arguments: { slug: "cities" } }),
          new RegExp(`-32602: unknown tool "${name}": this node is read-only and has no write tools$`),
        );
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP honours the node token, the Host guard and the cross-site guard; other methods are 405", async () => {
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const send = (port: number, headers: string) =>
    rawRequest(
      port,
      `POST /mcp HTTP/1.1\r\n${headers}Content-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${init.length}\r\nConnection: close\r\n\r\n${init}`,
    );
  await withNode({ token: "mcp-token-123" }, async ({ url, port }) => {
    await assertRejects(() => mcpClient(url), /401|token/i);
    const client = await mcpClient(url, { authorization: "Bearer mcp-token-123" });
    assertEquals((await client.listTools()).tools.length, toolOperations().length);
    await client.close();
    const token = "Authorization: Bearer mcp-token-123\r\n";
    assertEquals((await send(port, `Host: 127.0.0.1:${port}\r\n${token}`)).status, 200);
    assertEquals((await send(port, `Host: node.example\r\n${token}`)).status, 200, "the token vouches for any Host");
    assertEquals((await send(port, `Host: 127.0.0.1:${port}\r\n`)).status, 401);
    for (const method of ["GET", "DELETE", "PUT"]) {
      const r = await fetch(`${url}/mcp`, { method, headers: { authorization: "Bearer mcp-token-123" } });
      assertEquals([r.status, r.headers.get("allow")], [405, "POST"], method);
      await r.body?.cancel();
    }
  });
  await withNode({}, async ({ url, port }) => {
    assertEquals((await send(port, "Host: rebind.example\r\n")).status, 403);
    assertEquals((await send(port, `Host: localhost:${port}\r\n`)).status, 200);
    const foreign = await mcpClient(url, { origin: "https://evil.example" }).catch((e: Error) => e);
    assert(foreign instanceof Error, "a foreign Origin is refused");
    assertMatch(String(foreign.message), /403|cross-site/);
  });
});
