/**
 * What the SDK client learns when it connects: the `initialize` answer
 * (protocol version, capabilities, instructions) and the tool listing
 * (titles, annotations, strict schemas).
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { assert, assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { mcpClient } from "./_client.ts";
import { toolOperations } from "../../src/catalog/mod.ts";

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

Deno.test("MCP initialize: the SDK's newest version, instructions with the limits, no listChanged", async () => {
  await withNode({}, async ({ url }) => {
    assertEquals(LATEST_PROTOCOL_VERSION, "2025-11-25");
    const init = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    }).then((r) => r.json());
    assertEquals(init.result.protocolVersion, "2025-11-25");

    const client = await mcpClient(url);
    try {
      assertEquals(client.getServerCapabilities(), { tools: {} }, "no listChanged, nothing but tools");
      assertEquals(client.getServerVersion()?.name, "svc-node");
      const text = client.getInstructions() ?? "";
      for (
        const fact of [
          /svc dataset node/,
          /`dataset_info` before reading or querying/,
          /the table `records`/,
          /200 at most per page \(default 50\)/,
          /at most 1000 rows \(default 200\)/,
          /stopped after 20 seconds/,
          /at most 4000 characters/,
          /1-500 records \(at most 512 KiB\)/,
          /`create_dataset`/,
        ]
      ) assertMatch(text, fact);
      assertEquals(text, init.result.instructions);
    } finally {
      await client.close();
    }
  });
  await withNode({ readOnly: true, keepVersions: 3 }, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const text = client.getInstructions() ?? "";
      assertMatch(text, /This node is read-only: it takes no writes\./);
      assertMatch(text, /keeps the newest 3 versions/);
      assertEquals(/create_dataset|contribute_records/.test(text), false);
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP tools/list: a title, honest annotations and a strict schema on every tool", async () => {
  await withNode({}, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const byName: Record<string, Json> = Object.fromEntries((tools as Json[]).map((t) => [t.name, t]));
      // The catalog's tools, in its order; the reference's nine among them, in theirs.
      assertEquals(Object.keys(byName), toolOperations().map((o) => o.tool.name));
      const reference = [
        "list_datasets",
        "dataset_info",
        "read_dataset",
        "dataset_manifest",
        "query_dataset",
        "dataset_statistics",
        "create_dataset",
        "contribute_records",
        "contribution_status",
      ];
      assertEquals(Object.keys(byName).filter((n) => reference.includes(n)), reference);
      for (const tool of tools as Json[]) {
        assert(tool.title && tool.title.length > 3, tool.name);
        assertEquals(tool.annotations.title, tool.title, tool.name);
        assertEquals(tool.annotations.openWorldHint, false, tool.name);
        for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint"]) {
          assertEquals(typeof tool.annotations[hint], "boolean", `${tool.name} ${hint}`);
        }
        assertEquals(tool.inputSchema.type, "object");
        assertEquals(tool.inputSchema.additionalProperties, false, tool.name);
      }
      const reads = ["list_datasets", "dataset_info", "read_dataset", "dataset_manifest", "query_dataset"];
      for (const name of [...reads, "dataset_statistics"]) {
        const { title: _, ...hints } = byName[name].annotations;
        assertEquals(hints, READ, name);
      }
      const { title: _t, ...status } = byName.contribution_status.annotations;
      assertEquals(status, READ);
      assertEquals(byName.create_dataset.annotations, {
        title: "Create dataset",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      assertEquals(byName.contribute_records.annotations.readOnlyHint, false);
      assertEquals(byName.contribute_records.annotations.destructiveHint, false, "nothing is pruned");
      assertEquals(byName.contribute_records.annotations.idempotentHint, false);
      const create = byName.create_dataset.inputSchema;
      assertEquals(create.required, ["slug", "title", "readme", "schemaDef"]);
      assertEquals(create.properties.schemaDef.additionalProperties, false);
      assertEquals(create.properties.schemaDef.properties.fields.items.additionalProperties, false);
      assertEquals(create.properties.visibility.enum, ["public", "private"]);
    } finally {
      await client.close();
    }
  });
  await withNode({ keepVersions: 2 }, async ({ url }) => {
    const client = await mcpClient(url);
    try {
      const { tools } = await client.listTools();
      const contribute = (tools as Json[]).find((t) => t.name === "contribute_records");
      assertEquals(contribute.annotations.destructiveHint, true, "a merge prunes the oldest version");
    } finally {
      await client.close();
    }
  });
});
