/**
 * A plain `tools/call` of a read tool is answered straight from its route;
 * the same call inside a batch (protocol 2025-03-26) goes through the SDK.
 * Both must answer the same.
 */
import { assertEquals, assertMatch, type Json } from "../support/assert.ts";
import { withNode } from "../support/node.ts";
import { StoreWriter } from "../support/store_fixture.ts";

async function post(url: string, body: unknown): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2025-03-26" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const CALLS: [string, Record<string, unknown>][] = [
  ["list_datasets", {}],
  ["list_datasets", { query: "cit" }],
  ["dataset_info", { slug: "cities" }],
  ["read_dataset", { slug: "cities" }],
  ["read_dataset", { slug: "cities", version: 1, limit: 3, offset: 240 }],
  ["dataset_manifest", { slug: "cities", version: 2 }],
  ["query_dataset", {
    slug: "cities",
    sql: "SELECT country, count(*) AS n FROM records GROUP BY 1 ORDER BY 2 DESC, 1",
  }],
  ["read_dataset", { slug: "nowhere" }],
  ["read_dataset", { slug: "cities", version: 9 }],
  ["query_dataset", { slug: "cities", sql: "DELETE FROM records" }],
];

Deno.test("a read tool's call answered from its route is the SDK's answer, tool errors too", async () => {
  await withNode({}, async ({ url }) => {
    for (const [id, [name, args]] of CALLS.entries()) {
      const message = { jsonrpc: "2.0", id: id + 1, method: "tools/call", params: { name, arguments: args } };
      const fast = await post(url, message);
      const sdk = await post(url, [message]);
      assertEquals(fast.status, 200);
      assertEquals([fast.headers.get("content-type"), fast.headers.get("x-svc-node")], ["application/json", "1"]);
      // The SDK answers a batch of one with the answer alone.
      const viaSdk = Array.isArray(sdk.body) ? sdk.body[0] : sdk.body;
      assertEquals(fast.body, viaSdk, `${name} ${JSON.stringify(args)}`);
    }
  });
});

Deno.test("a read tool's structuredContent keeps integers beyond 2^53 to the digit", async () => {
  await withNode({}, async ({ url, store }) => {
    const w = new StoreWriter(store);
    try {
      await w.version("big", 1, { parts: [{ sql: "SELECT 9007199254740993::BIGINT AS id" }] });
    } finally {
      w.close();
    }
    const message = {
      jsonrpc: "2.0",
      id: "a",
      method: "tools/call",
      params: { name: "read_dataset", arguments: { slug: "big" } },
    };
    const res = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(message),
    });
    const text = await res.text();
    assertMatch(
      text,
      /"structuredContent":\{"project":"big","version":1,"count":1,"records":\[\{"id":9007199254740993\}\]/,
    );
    assertMatch(text, /"id":"a"\}$/);
  });
});
